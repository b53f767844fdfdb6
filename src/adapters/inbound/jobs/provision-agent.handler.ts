import { z } from 'zod';
import type { CompleteProvisioning } from '../../../application/agents/complete-provisioning.use-case.js';
import { PROVISION_AGENT_JOB } from '../../../application/agents/provision-agent.use-case.js';
import type { JobHandler } from '../../../application/ports/job-queue.port.js';
import { DomainError } from '../../../domain/shared/domain-error.js';

export { PROVISION_AGENT_JOB };

const jobData = z.object({
  agentId: z.string().uuid(),
  userId: z.string().uuid(),
  plan: z.string().min(1).max(64),
  ramGb: z.number().positive().max(1024),
});

/** A job whose data this version cannot read: final, retrying cannot fix it. */
class ProvisionJobInvalidError extends DomainError {
  constructor() {
    super('PROVISION_JOB_INVALID', 'The provision job carries unreadable data');
  }
}

/**
 * The `provision` queue's handler (concurrency 2, retries with backoff: pg-boss-queue.ts). Runs
 * CompleteProvisioning, which is idempotent; a domain error is final, anything else retries.
 */
export const provisionAgentHandler =
  (useCase: Pick<CompleteProvisioning, 'execute'>): JobHandler =>
  async (data) => {
    const parsed = jobData.safeParse(data);
    if (!parsed.success) throw new ProvisionJobInvalidError();
    await useCase.execute(parsed.data);
  };
