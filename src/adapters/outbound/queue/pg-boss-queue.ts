import { PgBoss } from 'pg-boss';
import type pg from 'pg';
import { DomainError } from '../../../domain/shared/domain-error.js';
import type { JobHandler, JobHandlers, JobRequest, JobSender, QueueName } from '../../../application/ports/job-queue.port.js';
import type { SqlExecutor } from '../persistence/sql-executor.js';

export const PGBOSS_SCHEMA = 'pgboss';

/** DomainError codes that say "not now" rather than "no": the job is retried. */
const TRANSIENT_CODES = new Set(['DATABASE_UNAVAILABLE']);
const isTransient = (err: unknown): boolean => err instanceof DomainError && TRANSIENT_CODES.has(err.code);
/** In-place retries of a job that met a database outage: about a minute in all, then pg-boss's own retry. */
const TRANSIENT_RETRY_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000, 8_000, 8_000, 8_000];

const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });

/** Where scheduled jobs go (never sent by use cases): each run is short, and the next occurrence is its retry. */
export const MAINTENANCE_QUEUE = 'maintenance';

interface QueuePolicy { concurrency: number; retryLimit: number; retryDelay: number; retryDelayMax: number; deadLetter?: string }

/**
 * The spec's queues: concurrency per worker process, retries with exponential backoff from a real
 * delay. A job of `webhooks` or `mail` whose retries are spent moves to its dead-letter queue,
 * which nothing works: it is kept there (and in the delivery's own record) for an operator.
 */
export const QUEUES: Record<QueueName | typeof MAINTENANCE_QUEUE, QueuePolicy> = {
  tasks: { concurrency: 5, retryLimit: 5, retryDelay: 5, retryDelayMax: 300 },
  provision: { concurrency: 2, retryLimit: 3, retryDelay: 10, retryDelayMax: 600 },
  webhooks: { concurrency: 5, retryLimit: 8, retryDelay: 30, retryDelayMax: 3600, deadLetter: 'webhooks_dead' },
  mail: { concurrency: 2, retryLimit: 6, retryDelay: 30, retryDelayMax: 3600, deadLetter: 'mail_dead' },
  [MAINTENANCE_QUEUE]: { concurrency: 1, retryLimit: 1, retryDelay: 10, retryDelayMax: 10 },
};
export const DEAD_LETTER_QUEUES = ['webhooks_dead', 'mail_dead'] as const;

export interface PgBossQueueOptions {
  connectionString: string;
  log: { error(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
  /** Maintenance and cron run only where workers run. */
  supervise: boolean;
  /** Configured retries of some queues (WEBHOOK_RETRY_*, MAIL_RETRY_*). */
  retries?: Partial<Record<QueueName, { retryLimit: number; retryDelay: number }>>;
}

/**
 * pg-boss as the queue adapter. Jobs are rows, so a job sent with a unit of work's executor is
 * inserted by that transaction and exists exactly when it commits (transactional outbox).
 */
export class PgBossQueue implements JobHandlers {
  readonly boss: PgBoss;
  private readonly handlers = new Map<string, JobHandler>();
  /** Cuts the in-place retries short when the process stops (pg-boss then retries the job later). */
  private readonly stopping = new AbortController();
  private installing: Promise<void> | undefined;

  constructor(private readonly options: PgBossQueueOptions) {
    this.boss = new PgBoss({
      connectionString: options.connectionString,
      schema: PGBOSS_SCHEMA,
      max: 4,
      supervise: options.supervise,
      schedule: options.supervise,
    });
    this.boss.on('error', (err) => options.log.error({ err }, 'pg-boss error'));
  }

  /** Installs or upgrades the schema as the owner, declares the queues, and lets the app roles send. */
  async start(owner: pg.Pool): Promise<void> {
    await this.install();
    await grantSendAccess(owner);
  }

  /**
   * pg-boss's own part of start(): its schema installed or upgraded, the queues declared. It needs
   * nothing of the application's migrations (only the send grants do, which start() adds after it),
   * so a start may run it beside them; start() then waits for the same run. Once per queue object.
   */
  install(): Promise<void> {
    return (this.installing ??= this.installOnce());
  }

  private async installOnce(): Promise<void> {
    await this.boss.start();
    const queues = Object.entries(this.queues());
    // All of them read at once; a queue is created when missing and updated only where its policy
    // differs, so a restart with the same settings costs one query and writes nothing.
    const existing = new Map((await this.boss.getQueues([...DEAD_LETTER_QUEUES, ...queues.map(([name]) => name)])).map((q) => [q.name, q]));
    for (const name of DEAD_LETTER_QUEUES) if (!existing.has(name)) await this.boss.createQueue(name);
    for (const [name, q] of queues) {
      const policy = { retryLimit: q.retryLimit, retryDelay: q.retryDelay, retryBackoff: true, retryDelayMax: q.retryDelayMax, ...(q.deadLetter ? { deadLetter: q.deadLetter } : {}) };
      const current = existing.get(name) as Record<string, unknown> | undefined;
      if (!current) await this.boss.createQueue(name, policy);
      else if (Object.entries(policy).some(([key, value]) => current[key] !== value)) await this.boss.updateQueue(name, policy);
    }
  }

  /** A sender whose jobs join the transaction that `executor` runs in. */
  senderFor(executor: SqlExecutor): JobSender {
    return {
      send: async (job: JobRequest) => {
        const id = await this.boss.send(job.queue, { kind: job.kind, ...job.data }, { db: executor, ...(job.startAfterSeconds ? { startAfter: job.startAfterSeconds } : {}) });
        if (!id) throw new Error(`job ${job.kind} was not queued`);
        return id;
      },
    };
  }

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /**
   * Sends a job of `kind` to the maintenance queue at each occurrence of `cron` (UTC). Idempotent
   * (the schedule is keyed by kind): every worker declares it at start, and pg-boss's cron pass
   * sends one job per occurrence however many workers run. Needs a handler registered for `kind`.
   */
  async schedule(kind: string, cron: string): Promise<void> {
    await this.boss.schedule(MAINTENANCE_QUEUE, cron, { kind }, { key: kind, tz: 'UTC' });
  }

  /**
   * Starts the workers: each queue dispatches a job to the handler registered for its kind. A
   * queue's concurrency is fetched as one batch, run side by side, with an outcome per job (a
   * failure retries that job alone); while batches come back full the worker fetches again at
   * once instead of waiting out its polling interval, so a backlog drains at the speed of the work.
   */
  async work(): Promise<void> {
    for (const [name, q] of Object.entries(this.queues())) {
      await this.boss.work<Record<string, unknown>>(
        name,
        { localConcurrency: 1, batchSize: q.concurrency, burstWhenBatchFull: true, pollingIntervalSeconds: 1, perJobResults: true },
        (jobs) => Promise.all(jobs.map((job) => this.run(job))),
      );
    }
  }

  private async run(job: { id: string; data: Record<string, unknown> }): Promise<{ id: string; status: 'completed' | 'failed'; output?: unknown }> {
    const { kind, ...data } = job.data;
    const handler = this.handlers.get(String(kind));
    if (!handler) return { id: job.id, status: 'failed', output: { error: `no handler for job kind ${String(kind)}` } };
    for (let attempt = 0; ; attempt++) {
      try {
        await handler(data);
        return { id: job.id, status: 'completed' };
      } catch (err) {
        // A database outage also stops pg-boss from recording the failure: the job would stay
        // `active` until its expiration (minutes). Retried here, while the job is still ours, it
        // runs as soon as the database is back.
        const delay = TRANSIENT_RETRY_DELAYS_MS[attempt];
        if (isTransient(err) && delay !== undefined && !this.stopping.signal.aborted) {
          this.options.log.warn({ err, kind, jobId: job.id, attempt }, 'job met a database outage; retrying in place');
          await abortableSleep(delay, this.stopping.signal);
          continue;
        }
        return this.failed(job.id, String(kind), err);
      }
    }
  }

  private failed(jobId: string, kind: string, err: unknown): { id: string; status: 'completed' | 'failed'; output?: unknown } {
    // A rule of the domain said no: retrying cannot change the answer, so end the job here. A
    // database outage is no such answer (its error is a DomainError for the HTTP map's sake): retry.
    if (err instanceof DomainError && !isTransient(err)) {
      this.options.log.warn({ err, kind, jobId }, 'job rejected by a domain rule; not retried');
      return { id: jobId, status: 'completed' };
    }
    this.options.log.warn({ err, kind, jobId }, 'job failed; pg-boss retries it');
    return { id: jobId, status: 'failed', output: { error: err instanceof Error ? err.message : String(err) } };
  }

  /**
   * The process was told to stop: fetch no more jobs (what is queued stays for the next worker),
   * while the jobs in hand finish and the HTTP side drains. stop() later waits for those jobs.
   */
  stopFetching(): void {
    this.stopping.abort();
    for (const name of Object.keys(QUEUES)) {
      this.boss.offWork(name, { wait: false }).catch((err: unknown) => this.options.log.warn({ err, queue: name }, 'pg-boss offWork failed'));
    }
  }

  private queues(): Record<string, QueuePolicy> {
    const out: Record<string, QueuePolicy> = { ...QUEUES };
    for (const [name, r] of Object.entries(this.options.retries ?? {})) out[name] = { ...out[name]!, ...r };
    return out;
  }

  /** Graceful: stops fetching, lets in-flight jobs finish within the timeout. */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping.abort();
    await this.boss.stop({ graceful: true, timeout: timeoutMs });
  }
}

/** What sending inside a unit of work needs, and no more: read the queue, insert a job. */
async function grantSendAccess(owner: pg.Pool): Promise<void> {
  const { rows } = await owner.query<{ table_name: string }>(
    `SELECT DISTINCT table_name FROM ${PGBOSS_SCHEMA}.queue`,
  );
  const jobTables = [...new Set(['job', ...rows.map((r) => r.table_name)])];
  const statements = [
    `GRANT USAGE ON SCHEMA ${PGBOSS_SCHEMA} TO app_user, app_system`,
    `GRANT SELECT ON ${PGBOSS_SCHEMA}.queue TO app_user, app_system`,
    `GRANT EXECUTE ON FUNCTION ${PGBOSS_SCHEMA}.job_now() TO app_user, app_system`,
    ...jobTables.map((t) => `GRANT INSERT, SELECT (id, start_after) ON ${PGBOSS_SCHEMA}."${t}" TO app_user, app_system`),
  ];
  await owner.query(statements.join(';\n')); // one round trip (and one transaction)
}
