import { DomainError } from '../shared/domain-error.js';

/** A frequency outside the grammar or the bounds. HTTP 400. */
export class InvalidHeartbeatFrequencyError extends DomainError {
  constructor(text: string) {
    super('VALIDATION_ERROR', `Invalid heartbeat frequency "${text}": use <positive integer><m|h|d> between ${HEARTBEAT_MIN} and ${HEARTBEAT_MAX}, e.g. 30m, 3h, 1d`, {
      min: HEARTBEAT_MIN,
      max: HEARTBEAT_MAX,
      details: [{ path: 'body/frequency', message: `must be <positive integer><m|h|d> between ${HEARTBEAT_MIN} and ${HEARTBEAT_MAX}` }],
    });
  }
}

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const GRAMMAR = /^([1-9][0-9]{0,5})([mhd])$/;

/**
 * Bounds (our decision, docs/decisions/0089-heartbeats.md): a heartbeat costs the owner AI units per running agent, so not
 * more often than every 5 minutes (the job runs each minute); and at least once a month, so an
 * enabled heartbeat is never a schedule that in practice never fires.
 */
export const HEARTBEAT_MIN = '5m';
export const HEARTBEAT_MAX = '30d';
const MIN_MS = 5 * UNIT_MS.m;
const MAX_MS = 30 * UNIT_MS.d;

/** No row: every 3 hours (the spec's example), disabled: it costs the owner AI units, so it is opt-in. */
export const HEARTBEAT_DEFAULTS = { frequency: '3h', enabled: false } as const;

/** A checked frequency: its text as given and its length. */
export interface HeartbeatFrequency {
  readonly text: string;
  readonly ms: number;
}

export function parseHeartbeatFrequency(text: string): HeartbeatFrequency {
  const m = GRAMMAR.exec(text);
  if (!m) throw new InvalidHeartbeatFrequencyError(text);
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  if (ms < MIN_MS || ms > MAX_MS) throw new InvalidHeartbeatFrequencyError(text);
  return { text, ms };
}

/** What a user's heartbeat is set to and where it stands. */
export interface HeartbeatState {
  frequency: string;
  enabled: boolean;
  lastHeartbeat: Date | null;
  nextHeartbeat: Date | null;
}

/**
 * When the next heartbeat is due after a settings change: none while disabled; one period after
 * the last heartbeat (or after now, when there was none), but never in the past (a long overdue
 * heartbeat goes at the next run, once). Saving the same settings again does not push it later.
 */
export function nextHeartbeatAfterChange(s: { enabled: boolean; frequency: HeartbeatFrequency; lastHeartbeat: Date | null; now: Date }): Date | null {
  if (!s.enabled) return null;
  const from = s.lastHeartbeat ?? s.now;
  return new Date(Math.max(from.getTime() + s.frequency.ms, s.now.getTime()));
}

/** After a heartbeat went at `sentAt`: the next is one period later. */
export const nextHeartbeatAfterSend = (frequency: HeartbeatFrequency, sentAt: Date): Date => new Date(sentAt.getTime() + frequency.ms);

/**
 * The settings after a POST: what was given replaces what was there (or the defaults).
 * Throws InvalidHeartbeatFrequencyError before anything is decided.
 */
export function changeHeartbeat(current: HeartbeatState | null, change: { frequency?: string | undefined; enabled?: boolean | undefined }, now: Date): HeartbeatState {
  const frequency = parseHeartbeatFrequency(change.frequency ?? current?.frequency ?? HEARTBEAT_DEFAULTS.frequency);
  const enabled = change.enabled ?? current?.enabled ?? HEARTBEAT_DEFAULTS.enabled;
  const lastHeartbeat = current?.lastHeartbeat ?? null;
  return { frequency: frequency.text, enabled, lastHeartbeat, nextHeartbeat: nextHeartbeatAfterChange({ enabled, frequency, lastHeartbeat, now }) };
}

/** The state to show when the user has no row. */
export const defaultHeartbeat = (): HeartbeatState => ({ frequency: HEARTBEAT_DEFAULTS.frequency, enabled: HEARTBEAT_DEFAULTS.enabled, lastHeartbeat: null, nextHeartbeat: null });
