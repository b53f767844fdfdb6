import type { AgentEventKind } from '../../domain/agents/agent-event.js';
import { moveInstance, type Instance, type InstanceMove } from '../../domain/agents/instance.js';
import type { UserId } from '../../domain/shared/ids.js';
import type { SealedSecret } from '../ports/secret-box.port.js';
import type { AgentsSystemScope } from '../ports/scopes/agents-scope.port.js';

const EVENT_OF: Record<InstanceMove, AgentEventKind> = {
  start: 'started',
  restart: 'started',
  update: 'started',
  stop: 'stopped',
  repair: 'repaired',
  crash: 'crashed',
};

/**
 * Moves the instance and all its agents by the state machine (`moveInstance`) inside the caller's
 * system unit of work, and appends one event per agent moved. Null when the instance is gone or
 * the move is illegal for it (a crash reported for a stopped instance): nothing is written.
 */
export async function applyInstanceMove(
  s: Pick<AgentsSystemScope, 'agents' | 'instances' | 'agentEvents'>,
  userId: UserId,
  move: InstanceMove,
  now: Date,
  reason: string | null = null,
): Promise<Instance | null> {
  const instance = await s.instances.lock(userId);
  if (!instance) return null;
  const agents = await s.agents.lockAllOf(userId);
  let result: ReturnType<typeof moveInstance<(typeof agents)[number]>>;
  try {
    result = moveInstance(instance, agents, move, now);
  } catch {
    return null;
  }
  await s.instances.setState(userId, { status: result.instance.status, startedAt: result.instance.startedAt });
  for (const { agent, transition } of result.agents) {
    if (transition.kind !== 'moved') continue;
    await s.agents.setStatus(agent.id, transition.to);
    await s.agentEvents.append({ agentId: agent.id, userId, kind: EVENT_OF[move], durationMs: null, reason, at: now });
  }
  return result.instance;
}

/** What a worker needs to start an instance's runtime. */
export interface InstanceStartData {
  instance: Instance;
  sealedToken: SealedSecret;
  ramGb: number;
}
