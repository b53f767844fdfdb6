/**
 * What happened to an agent, appended and never changed: stats, metrics and uptime are computed
 * from these rows. `durationMs` is the time the step took (a provisioning, an answer), when it has one.
 */
export const AGENT_EVENT_KINDS = ['provisioned', 'provision_failed', 'started', 'stopped', 'crashed', 'repaired', 'message_answered', 'message_failed', 'heartbeat_skipped', 'heartbeat', 'skill_call', 'mcp_call'] as const;
export type AgentEventKind = (typeof AGENT_EVENT_KINDS)[number];

export interface AgentEvent {
  agentId: string;
  kind: AgentEventKind;
  durationMs: number | null;
  /** Why, for the kinds that have a reason (a crash's exit code, a watchdog stop above the RAM cap). */
  reason: string | null;
  at: Date;
}
