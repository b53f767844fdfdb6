import { describe, expect, it } from 'vitest';
import { INSTANCE_LEASES } from '../../../src/application/ports/instance-leases.port.js';
import { ReconcileInstances } from '../../../src/application/instances/reconcile-instances.use-case.js';
import type { UserId } from '../../../src/domain/shared/ids.js';
import { provisionedUser } from '../../support/agents/instances.js';
import { startTestApp } from '../../support/test-app.js';

/**
 * A worker that stops cleanly gives its leases up; one that dies leaves them to expire. The next
 * worker starts both kinds of instance again, but only the second is a takeover worth telling an
 * operator about ("taking over an instance whose worker is gone" read as a crash after every Ctrl-C).
 * No worker side runs here: the test drives one reconcile step itself.
 */
const t = await startTestApp({ env: { RUNTIME_RUN_AS_USER: '', RATE_LIMIT_AGENTS: '100000', INSTANCE_LEASE_MS: '3000' } });
const owner = t.infra.pools.owner;
const leases = t.container.resolve(INSTANCE_LEASES);

/** A user whose instance is marked running (as a worker left it) with no runtime anywhere. */
async function runningInstance(): Promise<UserId> {
  const { user } = await provisionedUser(t.app, owner);
  await owner.query(`update instances set status = 'running' where user_id = $1`, [user.id]);
  return user.id as UserId;
}

describe('instances left by a stopped worker', () => {
  it('one released on a clean stop is an orphan without an expired lease, one whose worker died has one; only that is logged as a takeover', async () => {
    const released = await runningInstance();
    const abandoned = await runningInstance();
    await owner.query(`insert into instance_leases (user_id, worker_id, expires_at) values ($1, 'worker:dead', now() - interval '1 minute')`, [abandoned]);

    const orphans = await leases.orphans();
    expect(orphans).toContainEqual({ userId: released, leaseExpired: false });
    expect(orphans).toContainEqual({ userId: abandoned, leaseExpired: true });

    const before = t.logs.length;
    // the runtimes may not start here (no build of the agent host is needed for what is checked): the log says which is which
    await t.container.resolve(ReconcileInstances).execute().catch(() => {});
    const takeovers = t.logs.slice(before).map((l) => JSON.parse(l)).filter((l) => l.msg === 'taking over an instance whose worker is gone').map((l) => l.userId);
    expect(takeovers).toContain(abandoned);
    expect(takeovers).not.toContain(released);
  }, 60_000);
});
