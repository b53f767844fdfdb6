import { describe, expect, it } from 'vitest';
import { startFakeOpenAiServer } from '../../support/ai/fake-openai-server.js';
import { startOwnPostgres } from '../../support/faults/own-postgres.js';
import { agentServiceEnv, agentStatusOn, faultServices, subscribeOn } from '../../support/faults/fault-services.js';
import { request, signUpOverWire, type Outcome, type WireUser } from '../../support/faults/wire-client.js';
import { sleep, until } from '../../support/polling.js';

/**
 * SIGTERM while the service (its own process, SERVICE_ROLE=all, on a PostgreSQL of the test's own)
 * serves a mix of fast reads, slow password hashes and chats through a slow provider, with
 * provisioning jobs queued behind a busy worker: every request started before the signal gets its
 * answer, the process exits 0 within SHUTDOWN_TIMEOUT_MS, and a service started again on the same
 * database runs every job that was still queued.
 * FAULT_TRACE=<file> keeps the timeline and the service's log there, for diagnosis.
 */
const KEY = 'sk-or-fault-key';
const SHUTDOWN_TIMEOUT_MS = 10_000;

const pgs = await startOwnPostgres();
const provider = await startFakeOpenAiServer({ apiKey: KEY, behaviour: { kind: 'slow', delayMs: 800 } });
const services = faultServices(() => provider.close(), () => pgs.destroy());

const start = () =>
  services.start(
    {
      ...agentServiceEnv(provider, KEY),
      // slow enough that registrations are still hashing when the signal comes (about 100 ms a hash
      // on an idle 2-core machine of 2026-11-28)
      ARGON2_MEMORY_KIB: '16384',
      ARGON2_TIME_COST: '16',
      AGENT_REPLY_TIMEOUT_MS: '6000',
      INSTANCE_LEASE_MS: '3000',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    },
    { databaseUrl: pgs.url },
  );

describe('SIGTERM under load', () => {
  it('when the service gets SIGTERM under a mix of requests and queued jobs, then every request in flight is answered, it exits 0 within SHUTDOWN_TIMEOUT_MS, and the jobs still queued run after a restart on the same database', async () => {
    const first = await start();
    const { base } = first;
    try {
      const talker = await signUpOverWire(base);
      await subscribeOn(pgs, talker.id);
      const res = await request(base, 'provision', 'POST', '/api/agents/provision', { headers: talker.headers, body: { name: 'Talker' } });
      expect(res.status).toBe(201);
      const agentId = res.body.agent.id as string;
      await until('the agent to run', 30_000, async () => (await agentStatusOn(pgs, agentId)) === 'running');

      const queuers: WireUser[] = [];
      for (let i = 0; i < 4; i++) {
        const u = await signUpOverWire(base);
        await subscribeOn(pgs, u.id);
        queuers.push(u);
      }

      const outcomes: Outcome[] = [];
      const inFlight: Promise<void>[] = [];
      let signalledAt = Number.POSITIVE_INFINITY;
      const fire = (p: Promise<Outcome>) => inFlight.push(p.then((o) => void outcomes.push(o)));
      const loop = async (every: number, one: (i: number) => Promise<Outcome>) => {
        for (let i = 0; Date.now() < signalledAt; i++) {
          fire(one(i));
          await sleep(every);
        }
      };
      const load = Promise.all([
        loop(40, () => request(base, 'settings', 'GET', '/api/settings', { headers: { cookie: talker.cookie } })),
        loop(250, (i) => request(base, 'register', 'POST', '/api/register', { body: { email: `sigterm-${i}-${Date.now()}@example.test`, password: 'long enough pw' } })),
        loop(400, (i) => request(base, 'chat', 'POST', '/api/chat', { headers: talker.headers, body: { agentId, content: `message ${i}` } })),
      ]);
      await sleep(1_500);
      // provisioning jobs sent just before the signal: the worker fetches two at a time, once a second, so most are still queued
      const provisions = await Promise.all(
        queuers.map((u) => request(base, 'provision', 'POST', '/api/agents/provision', { headers: u.headers, body: { name: 'Queued' } })),
      );
      expect(provisions.map((p) => p.status)).toEqual(queuers.map(() => 201));
      const queuedAgents = provisions.map((p) => p.body.agent.id as string);
      // one sign-up sent just before the signal, past the 20 ms margin below: still hashing when the
      // signal comes, whatever the machine's speed did to the loop's own (a hash every 250 ms was in
      // flight at the signal only by chance on a fast machine)
      fire(request(base, 'register', 'POST', '/api/register', { body: { email: `sigterm-last-${Date.now()}@example.test`, password: 'long enough pw' } }));
      await sleep(40);
      signalledAt = Date.now();
      first.service.child.kill('SIGTERM');
      await load;
      const code = await first.service.exited;
      const tookMs = Date.now() - signalledAt;
      await Promise.all(inFlight);

      if (process.env.FAULT_TRACE) console.log(JSON.stringify(outcomes.filter((o) => o.endedAt > signalledAt - 1000).map((o) => ({ w: o.what, s: o.startedAt - signalledAt, e: o.endedAt - signalledAt, st: o.status, err: o.error }))));
      expect(code).toBe(0);
      expect(tookMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
      const started = outcomes.filter((o) => o.startedAt < signalledAt - 20); // a request sent at the signal's instant may meet a closed socket
      expect(started.filter((o) => o.status === null).map((o) => ({ what: o.what, error: o.error, at: o.startedAt - signalledAt }))).toEqual([]);
      expect(started.filter((o) => o.status! >= 500).map((o) => ({ what: o.what, status: o.status, body: o.body }))).toEqual([]);
      expect(started.some((o) => o.what === 'register' && o.endedAt > signalledAt)).toBe(true); // a slow one really was in flight
      const answeredChats = started.filter((o) => o.what === 'chat' && (o.status === 200 || o.status === 202)).map((o) => o.body.message.id as string);

      const stillQueued = await pgs.query(`select count(*)::int as n from pgboss.job where name = 'provision' and state in ('created', 'retry', 'active')`);
      const leftOver = stillQueued[0].n as number;
      expect(leftOver).toBeGreaterThan(0); // the restart below really has queued jobs to run

      // a new service on the same database runs what was left
      const second = await start();
      await until('every queued agent to run', 60_000, async () => (await Promise.all(queuedAgents.map((id) => agentStatusOn(pgs, id)))).every((s) => s === 'running'));
      // a job's agent runs before pg-boss marks the job completed (the handler writes the status, then returns)
      const notCompleted = async () => (await pgs.query<{ state: string }>(`select state from pgboss.job where name = 'provision'`)).map((j) => j.state).filter((s) => s !== 'completed');
      await until('every provisioning job completed', 15_000, async () => (await notCompleted()).length === 0).catch(() => undefined);
      expect(await notCompleted()).toEqual([]);
      const mailbox = await until('every message answered', 30_000, async () => {
        const rows = await pgs.query<{ status: string }>(`select status from agent_mailbox where agent_id = $1`, [agentId]);
        return rows.every((r) => r.status === 'answered') ? rows : null;
      });
      const stored = await pgs.query<{ id: string; role: string }>(`select id, role from agent_messages where agent_id = $1`, [agentId]);
      const ids = new Set(stored.map((m) => m.id));
      expect(answeredChats.filter((id) => !ids.has(id))).toEqual([]);
      expect(stored.filter((m) => m.role === 'assistant').length).toBe(mailbox.length);
      console.log(`SIGTERM under load: ${started.length} requests in flight or done before the signal, exit after ${tookMs} ms, ${leftOver} provisioning jobs left queued and run after the restart`);
      const after = await request(second.base, 'chat', 'POST', '/api/chat', { headers: talker.headers, body: { agentId, content: 'after the restart' } });
      expect(after.status).toBe(200);
    } catch (err) {
      if (process.env.FAULT_TRACE) (await import('node:fs')).writeFileSync(process.env.FAULT_TRACE, services.processes.map((s) => s.output).join('\n=====\n'));
      for (const s of services.processes) console.log(s.output.slice(-5000));
      throw err;
    }
  }, 170_000);
});
