import type { AgentMove, AgentStatus } from './agent-status.js';
import { transition, type Transition } from './agent-transition.js';

/**
 * One per user: the runtime that hosts all of the user's agents (CONTRACT.md section 7). Agent
 * detail's `startedAt`, `plan`, `subdomain`, `url` and `runtimeVersion` come from here.
 */
export interface Instance {
  userId: string;
  status: AgentStatus;
  startedAt: Date | null;
  subdomain: string;
  url: string;
  plan: string;
  runtimeVersion: string;
}

export type InstanceMove = Extract<AgentMove, 'start' | 'stop' | 'restart' | 'update' | 'repair' | 'crash'>;

/**
 * An instance call moves the instance and every agent it hosts by the same table. Agents for
 * which the move is illegal (a crash reported for a stopped agent) stay as they are: the
 * instance's move still happens.
 */
export function moveInstance<A extends { id: string; status: AgentStatus }>(
  instance: Instance,
  agents: readonly A[],
  move: InstanceMove,
  now: Date,
): { instance: Instance; agents: { agent: A; transition: Transition }[] } {
  const to = instanceStatusAfter(instance.status, move);
  const moved = agents.flatMap((agent) => {
    try {
      return [{ agent, transition: transition(agent.status, move) }];
    } catch {
      return [];
    }
  });
  // every move into running (re)starts the process, except a start of one already running
  const restarted = to === 'running' && !(move === 'start' && instance.status === 'running');
  return { instance: { ...instance, status: to, startedAt: restarted ? now : instance.startedAt }, agents: moved };
}

function instanceStatusAfter(from: AgentStatus, move: InstanceMove): AgentStatus {
  const t = transition(from, move);
  return t.kind === 'moved' ? t.to : t.status;
}

/** The subdomain of a user's instance: stable, derived from the user id, safe as a DNS label. */
export const subdomainFor = (userId: string): string => `u-${userId.replace(/-/g, '').slice(0, 16)}`;
