import type { InjectionToken } from 'tsyringe';

/** Runtime ownership and the instance endpoints' configuration. */
export interface InstanceSettings {
  /** INSTANCE_LEASE_MS: how long a lease lasts without a heartbeat. */
  readonly leaseMs: number;
  /** INSTANCE_HEARTBEAT_MS: renewal, takeover and reconcile period. */
  readonly heartbeatMs: number;
  /** INSTANCE_COMMAND_TIMEOUT_MS: how long an api process waits for the owner's answer. */
  readonly commandTimeoutMs: number;
  /** How long a stats read waits for the owner before the answer falls back (agent stats: the mock variant). */
  readonly statsTimeoutMs: number;
  /** RATE_LIMIT_INSTANCE: requests per caller per minute on /api/instance/*. */
  readonly rateLimitPerMinute: number;
}

export const INSTANCE_SETTINGS: InjectionToken<InstanceSettings> = Symbol('InstanceSettings');
