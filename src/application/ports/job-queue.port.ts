import type { InjectionToken } from 'tsyringe';

export type QueueName = 'tasks' | 'provision' | 'webhooks' | 'mail';

export interface JobRequest {
  queue: QueueName;
  /** The job's kind, read by the handler that the queue dispatches to. */
  kind: string;
  data: Record<string, unknown>;
  /** Not before this many seconds from now (a recovery job behind an inline attempt). */
  startAfterSeconds?: number;
}

/**
 * Sends jobs. Inside a unit of work the job joins the unit's transaction: it runs exactly when
 * the transaction commits, never when it rolls back.
 */
export interface JobSender {
  send(job: JobRequest): Promise<string>;
}

/** Job handlers by kind, registered by the worker. A DomainError thrown is final; anything else retries. */
export type JobHandler = (data: Record<string, unknown>) => Promise<void>;
export interface JobHandlers {
  register(kind: string, handler: JobHandler): void;
}
export const JOB_HANDLERS: InjectionToken<JobHandlers> = Symbol('JobHandlers');
