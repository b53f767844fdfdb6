import type { HeartbeatState } from '../../domain/heartbeat/heartbeat-schedule.js';
import type { UserId } from '../../domain/shared/ids.js';

/** The acting user's heartbeat row (user unit of work; RLS: their own only). */
export interface HeartbeatRepository {
  /** Null when the user never saved settings (the defaults apply). */
  get(): Promise<(HeartbeatState & { updatedAt: Date }) | null>;
  /** Inserts or replaces the row; returns its time. */
  save(state: HeartbeatState, at: Date): Promise<Date>;
  /** Removes the row (back to the defaults); false when there was none. */
  delete(): Promise<boolean>;
  /**
   * The row when it is enabled and due at `now`, locked until the unit of work ends
   * (`FOR UPDATE SKIP LOCKED`): a concurrent run gets null and sends nothing, and once this one
   * commits its moved `nextHeartbeat` is no longer due. Null when not due, disabled or absent.
   */
  claimDue(now: Date): Promise<HeartbeatState | null>;
  /** Records a heartbeat sent at `sentAt` and the next one (the row must be claimed). */
  recordSent(sentAt: Date, next: Date): Promise<void>;
}

/** Who is due (system unit of work: the scheduled run). */
export interface HeartbeatSchedule {
  /** Users whose enabled heartbeat is due at `now`, the most overdue first, at most `limit`. */
  dueUsers(now: Date, limit: number): Promise<UserId[]>;
}
