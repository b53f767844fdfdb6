import { AgentInvalidTransitionError } from './agent.errors.js';
import { AGENT_TRANSITIONS, type AgentMove, type AgentStatus } from './agent-status.js';

/** The result of applying a move: a new state, or nothing to apply (a late deployment result). */
export type Transition = { kind: 'moved'; from: AgentStatus; to: AgentStatus } | { kind: 'ignored'; status: AgentStatus };

/** Applies `move` to an agent in state `from`; throws AgentInvalidTransitionError when the table has no cell for it. */
export function transition(from: AgentStatus, move: AgentMove): Transition {
  const outcome = AGENT_TRANSITIONS[move][from];
  if (outcome === undefined) throw new AgentInvalidTransitionError(from, move);
  return outcome === 'ignored' ? { kind: 'ignored', status: from } : { kind: 'moved', from, to: outcome };
}
