import type { InjectionToken } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';
import type { ClaimedWithContext } from './agent-mailbox.port.js';

/**
 * This process's mailbox lanes, offered to a message about to be stored (decision 0368): when this
 * process runs the user's runtime and has a lane free for the user, the message can be stored
 * already claimed (HotWrites.sendAndClaim) and answered by that lane without a claim of its own.
 */
export interface MailboxLanes {
  /** A lane held for the user, or null (this process does not run the user's runtime, has no lane free, or is stopping). */
  hold(userId: UserId): HeldLane | null;
}

/** A lane held for one message: exactly one of `answer` or `release` must be called. */
export interface HeldLane {
  /** The claim the message is stored under. */
  readonly claimId: string;
  readonly workerId: string;
  /** The message was stored claimed: the lane answers it (and goes on as any lane), in the background. */
  answer(work: ClaimedWithContext): void;
  /** Nothing was stored claimed (queued, refused, or the store failed): the lane is given back. */
  release(): void;
}
export const MAILBOX_LANES: InjectionToken<MailboxLanes> = Symbol('MailboxLanes');
/** For a process that answers no message (SERVICE_ROLE=api). */
export const NO_MAILBOX_LANES: MailboxLanes = { hold: () => null };
