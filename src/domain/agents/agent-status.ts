/**
 * The Agent state machine (spec: "States and transitions"; CONTRACT.md section 7), as data.
 *
 * - Provisioning ends in `running` when the deployment is confirmed, or `error` when it fails.
 *   A deployment result for an agent that is no longer `provisioning` (it was stopped, started
 *   or restarted meanwhile) is *ignored*: it describes a past attempt and must never be applied.
 * - The lifecycle calls (start, stop, restart, update) are allowed from any state.
 * - Repair brings an agent back from any state, as a restart does.
 * - A crash of the runtime moves a live agent (`running`, or `provisioning` on a runtime that
 *   died while starting) to `error`; a crash reported for a stopped or failed agent is a bug.
 */
export const AGENT_STATUSES = ['provisioning', 'running', 'error', 'stopped'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export const AGENT_MOVES = ['deployed', 'deploymentFailed', 'start', 'stop', 'restart', 'update', 'repair', 'crash'] as const;
export type AgentMove = (typeof AGENT_MOVES)[number];

/** What a move does from one state: go to a state, be ignored (a late result), or be illegal (absent). */
type Outcome = AgentStatus | 'ignored';

const ANY = <T extends Outcome>(to: T): Record<AgentStatus, T> => ({ provisioning: to, running: to, error: to, stopped: to });

/** from × move → outcome; a missing cell is an illegal move. */
export const AGENT_TRANSITIONS: Readonly<Record<AgentMove, Readonly<Partial<Record<AgentStatus, Outcome>>>>> = {
  deployed: { provisioning: 'running', running: 'ignored', error: 'ignored', stopped: 'ignored' },
  deploymentFailed: { provisioning: 'error', running: 'ignored', error: 'ignored', stopped: 'ignored' },
  start: ANY('running'),
  stop: ANY('stopped'),
  restart: ANY('running'),
  update: ANY('running'),
  repair: ANY('running'),
  crash: { provisioning: 'error', running: 'error' },
};

export const isAgentStatus = (v: unknown): v is AgentStatus => typeof v === 'string' && (AGENT_STATUSES as readonly string[]).includes(v);
