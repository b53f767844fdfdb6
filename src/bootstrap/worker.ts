import type { DependencyContainer } from 'tsyringe';
import type { PgBossQueue } from '../adapters/outbound/queue/pg-boss-queue.js';

/**
 * The worker side: registers the job handlers of every area, then starts fetching.
 * Handlers call the same use cases the HTTP routes call.
 */
export async function startWorker(_container: DependencyContainer, queue: PgBossQueue): Promise<void> {
  await queue.work();
}
