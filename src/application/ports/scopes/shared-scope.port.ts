import type { UserId } from '../../../domain/shared/ids.js';
import type { JobSender } from '../job-queue.port.js';
import type { Outbox } from '../outbox.port.js';

/** What every area's user unit of work holds: the acting user, the outbox, and jobs sent with the commit. */
export interface SharedUserScope {
  userId: UserId;
  outbox: Outbox;
  jobs: JobSender;
}

/** What every area's system unit of work holds: the outbox, and jobs sent with the commit. */
export interface SharedSystemScope {
  outbox: Outbox;
  jobs: JobSender;
}
