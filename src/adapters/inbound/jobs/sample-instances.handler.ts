import type { SampleInstances } from '../../../application/metrics/sample-instances.use-case.js';
import type { JobHandler } from '../../../application/ports/job-queue.port.js';

/** The job kind, scheduled every minute on the maintenance queue. */
export const SAMPLE_INSTANCES = 'metrics.sample-instances';
export const SAMPLE_INSTANCES_CRON = '* * * * *';

/** Samples every running instance's cpu and memory, marks the minute up, prunes old samples. */
export const sampleInstancesHandler =
  (useCase: Pick<SampleInstances, 'execute'>): JobHandler =>
  async () => {
    await useCase.execute();
  };
