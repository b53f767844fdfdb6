import type { InjectionToken } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';

/** What an api process may ask of the worker that owns an instance (`join`: the provision job's "make sure it runs"). */
export const INSTANCE_COMMAND_KINDS = ['start', 'stop', 'restart', 'update', 'repair', 'reset-memory', 'stats', 'join'] as const;
export type InstanceCommandKind = (typeof INSTANCE_COMMAND_KINDS)[number];

/** Commands that start a runtime: the worker claiming one takes the instance's lease with it. */
export const STARTING_COMMANDS: readonly InstanceCommandKind[] = ['start', 'restart', 'update', 'repair', 'join'];

/** The owner's answer: a JSON value, or a failure with a stable code (e.g. `UPSTREAM_UNAVAILABLE`). */
export type CommandAnswer = { ok: true; value: unknown } | { ok: false; code: string; message: string };

export interface ClaimedCommand {
  id: string;
  userId: UserId;
  command: InstanceCommandKind;
}

/**
 * Lifecycle calls through the database (CONTRACT.md section 7): any api process sends, the worker
 * owning the instance runs and answers. SERVICE_ROLE=all takes the same path.
 */
export interface InstanceCommands {
  /**
   * Sends `command` and waits up to `timeoutMs` for the answer; null on timeout. A command no
   * worker claimed by then is withdrawn in the same step, so it never runs after the caller gave up.
   */
  request(userId: UserId, command: InstanceCommandKind, timeoutMs: number): Promise<CommandAnswer | null>;
  /**
   * Claims the oldest open command this worker may run: one of an instance it holds the lease of,
   * or that nobody holds a live lease of. A starting command takes the lease in the same
   * transaction (no lease, no claim). Atomic across workers: each command is claimed once.
   */
  claim(workerId: string, leaseMs: number): Promise<ClaimedCommand | null>;
  /** Stores the answer of a claimed command (the waiting api process reads it). */
  answer(id: string, answer: CommandAnswer): Promise<void>;
}
export const INSTANCE_COMMANDS: InjectionToken<InstanceCommands> = Symbol('InstanceCommands');
