import type { InjectionToken } from 'tsyringe';

/**
 * This worker process's identity, unique per start: its instance leases carry it, and so do its
 * claims of mailbox messages, so a worker that takes an instance over knows which claims were
 * the previous owner's.
 */
export interface WorkerIdentity {
  readonly workerId: string;
}
export const WORKER_IDENTITY: InjectionToken<WorkerIdentity> = Symbol('WorkerIdentity');
