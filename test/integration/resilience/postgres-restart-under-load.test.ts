import { describe, expect, it } from 'vitest';
import { startFakeOpenAiServer } from '../../support/ai/fake-openai-server.js';
import { startOwnPostgres } from '../../support/faults/own-postgres.js';
import { agentServiceEnv, agentStatusOn, faultServices, subscribeOn, userWithWarmAgent } from '../../support/faults/fault-services.js';
import { request, signUpOverWire, type Outcome, type WireUser } from '../../support/faults/wire-client.js';
import { sleep, until } from '../../support/polling.js';

/**
 * PostgreSQL stopped for a few seconds and started again while the service (its own process,
 * SERVICE_ROLE=all) serves a steady mix: settings reads, chat with a running agent through the
 * fake provider, and provisioning jobs queued through the API. The service is never restarted.
 * FAULT_TRACE=<file> keeps the timeline and the service's log there, for diagnosis.
 */
const KEY = 'sk-or-fault-key';
const OUTAGE_MS = 4_000;
/** How long after PostgreSQL is back a request may still meet a connection the outage broke. */
const RECONNECT_GRACE_MS = 3_000;

const pgs = await startOwnPostgres();
// slow enough that an answer is always on its way when the database goes
const provider = await startFakeOpenAiServer({ apiKey: KEY, behaviour: { kind: 'slow', delayMs: 700 } });
const services = faultServices(() => provider.close(), () => pgs.destroy());
const { service, base } = await services.start(
  { ...agentServiceEnv(provider, KEY), ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1', AGENT_REPLY_TIMEOUT_MS: '8000' },
  { databaseUrl: pgs.url },
);

describe('PostgreSQL restarted under load', () => {
  it('when PostgreSQL stops for a few seconds under a steady mix of requests, then only 503 DATABASE_UNAVAILABLE answers during the outage and the service, pg-boss and the agent runtimes recover without a restart, losing no job and no message', async () => {
    try {
      const { user: talker, agentId } = await userWithWarmAgent(base, pgs, 'Fault');

      // users who will queue a provisioning job each while the database comes and goes
      const provisioners: WireUser[] = [];
      for (let i = 0; i < 4; i++) {
        const u = await signUpOverWire(base);
        await subscribeOn(pgs, u.id);
        provisioners.push(u);
      }

      const outcomes: Outcome[] = [];
      let loading = true;
      const loop = async (every: number, one: (i: number) => Promise<Outcome>) => {
        for (let i = 0; loading; i++) {
          outcomes.push(await one(i));
          await sleep(every);
        }
      };
      const provisionedAgents: string[] = [];
      const load = Promise.all([
        loop(50, () => request(base, 'settings', 'GET', '/api/settings', { headers: { cookie: talker.cookie } })),
        loop(80, () => request(base, 'settings', 'GET', '/api/settings', { headers: { cookie: provisioners[0]!.cookie } })),
        loop(100, (i) => request(base, 'chat', 'POST', '/api/chat', { headers: talker.headers, body: { agentId, content: `message ${i}` } })),
        (async () => {
          // one provisioning job every ~2 s, spread across before, during and after the outage
          for (const u of provisioners) {
            if (!loading) break;
            for (let tries = 0; loading; tries++) {
              const o = await request(base, 'provision', 'POST', '/api/agents/provision', { headers: u.headers, body: { name: 'Queued' } });
              outcomes.push(o);
              if (o.status === 201) {
                provisionedAgents.push(o.body.agent.id);
                break;
              }
              await sleep(300);
            }
            await sleep(2_000);
          }
        })(),
      ]);

      await sleep(2_500);
      // stop while an agent's answer is on its way: the runtime's call then meets the outage
      await until('an answer in flight', 5_000, () => provider.requests.some((r) => !r.ended), 20);
      const stoppedAt = Date.now();
      await pgs.stop();
      await sleep(OUTAGE_MS);
      await pgs.start();
      const restartedAt = Date.now();
      await sleep(7_000);
      loading = false;
      await load;

      if (process.env.FAULT_TRACE) {
        const { writeFileSync } = await import('node:fs');
        writeFileSync(process.env.FAULT_TRACE, JSON.stringify({ stoppedAt: stoppedAt - restartedAt, outcomes: outcomes.map((o) => ({ what: o.what, s: o.startedAt - restartedAt, e: o.endedAt - restartedAt, status: o.status, code: o.code })), output: service.output }));
      }
      // every request got an answer, and the only failures are the outage's 503s, during the outage
      const dropped = outcomes.filter((o) => o.status === null);
      expect(dropped).toEqual([]);
      const failures = outcomes.filter((o) => !(o.status! >= 200 && o.status! < 300));
      const unexpected = failures.filter((o) => !(o.status === 503 && o.code === 'DATABASE_UNAVAILABLE'));
      expect(unexpected.map((o) => ({ what: o.what, status: o.status, body: o.body }))).toEqual([]);
      const outsideOutage = failures.filter((o) => o.endedAt < stoppedAt || o.startedAt > restartedAt + RECONNECT_GRACE_MS);
      expect(outsideOutage.map((o) => ({ what: o.what, startedAt: o.startedAt - restartedAt }))).toEqual([]);
      expect(failures.length).toBeGreaterThan(0); // the outage was seen
      const after = outcomes.filter((o) => o.startedAt > restartedAt + RECONNECT_GRACE_MS);
      expect(after.filter((o) => o.what === 'settings').length).toBeGreaterThan(5);
      expect(after.filter((o) => o.what === 'chat' && o.status === 200).length).toBeGreaterThan(0);

      // the service was never restarted
      expect(service.child.exitCode).toBeNull();

      // no message lost: each one the service accepted is stored, and every stored message is answered
      const accepted = outcomes.filter((o) => o.what === 'chat' && (o.status === 200 || o.status === 202)).map((o) => o.body.message.id as string);
      const mailbox = await until('every message answered', 30_000, async () => {
        const rows = await pgs.query<{ status: string }>(`select status from agent_mailbox where agent_id = $1`, [agentId]);
        return rows.every((r) => r.status === 'answered') ? rows : null;
      });
      const stored = await pgs.query<{ id: string; role: string }>(`select id, role from agent_messages where agent_id = $1`, [agentId]);
      const storedIds = new Set(stored.map((m) => m.id));
      expect(accepted.filter((id) => !storedIds.has(id))).toEqual([]);
      const users = stored.filter((m) => m.role === 'user').length;
      expect(stored.filter((m) => m.role === 'assistant').length).toBe(users);
      expect(mailbox.length).toBe(users);

      // no job lost: every provisioning accepted ran, on the same pg-boss
      expect(provisionedAgents.length).toBe(provisioners.length);
      await until('every queued agent to run', 40_000, async () => (await Promise.all(provisionedAgents.map((id) => agentStatusOn(pgs, id)))).every((s) => s === 'running'));
      const jobs = await pgs.query<{ state: string }>(`select state from pgboss.job where name = 'provision'`);
      expect(jobs.map((j) => j.state).filter((s) => s !== 'completed')).toEqual([]);

      // and the agent runtime still answers
      const last = await request(base, 'chat', 'POST', '/api/chat', { headers: talker.headers, body: { agentId, content: 'still there?' } });
      expect(last.status).toBe(200);
      expect(last.body.reply.content).toBe('Hello, world!');
    } catch (err) {
      console.log(service.output.slice(-6000));
      throw err;
    }
  }, 150_000);
});
