import { fork, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { dockerEngineForRun } from '../test/support/agent-runtimes/private-docker-daemon.js';
import { alternating, fmt, makeUsers, quantiles, send, sequential, sleep, waitExit, type Target } from './agents.bench.js';
import { benchDatabase, buildService, freePort, median, startProcess } from './support.js';

const PROVIDER_KEY = 'sk-bench-provider-key';

/**
 * Agents in containers on a real Docker Engine (DOCKER_HOST, else a private dockerd this round
 * starts as root and removes at the end, as the tests do), the service compiled as `npm start`
 * runs it (SERVICE_ROLE=all), the agent-host image built offline, the provider a local fake.
 *
 * 1. Provisioning: `users` users, `agents` agents in all through POST /api/agents/provision and the
 *    queue; the time from the first POST until every agent runs (one container per user), and the
 *    latency of POST /api/instance/:userId/{stop,start,restart} (each a container removed or made).
 * 2. Chat: POST /api/chat at concurrency 1 on the docker service and on a process-runtime service
 *    started beside it (same build, same provider), the two in turn message by message in each
 *    round, the added p50 the median of the rounds' differences: the p50 the container adds
 *    (the attach stream, the relayed service call) over the forked program's IPC.
 */
export async function benchDockerAgents(opts: { rounds: number; seconds: number; users?: number; agents?: number; lifecycleRounds?: number }) {
  const users = opts.users ?? 5;
  const agentsTotal = opts.agents ?? 20;
  const lifecycleRounds = opts.lifecycleRounds ?? 4;
  const engine = dockerEngineForRun((m) => console.log(`  docker: ${m}`));
  const info = await engine.info();
  if ('skip' in info) {
    console.log(`\nAgents on docker: skipped (${info.skip})`);
    return null;
  }
  const children: ChildProcess[] = [];
  const dbs: { drop(): Promise<void> }[] = [];
  const pools: pg.Pool[] = [];
  try {
    const provider = fork('bench/fake-ai-provider.ts', [], { execArgv: ['--import', 'tsx'], env: { ...process.env, FAKE_API_KEY: PROVIDER_KEY }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    children.push(provider);
    const providerBase = await new Promise<string>((resolve, reject) => {
      provider.once('message', (m) => resolve((m as { baseUrl: string }).baseUrl));
      provider.once('exit', (code) => reject(new Error(`fake provider exited with ${code}`)));
    });
    const entry = buildService();
    const service = async (runtime: 'process' | 'docker') => {
      const db = await benchDatabase();
      dbs.push(db);
      const owner = new pg.Pool({ connectionString: db.url, max: 3 });
      pools.push(owner);
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const child = await startProcess(entry, {
        DATABASE_URL: db.url, NODE_ENV: 'production', LOG_LEVEL: 'warn', SERVICE_ROLE: 'all',
        JWT_SECRET: 'bench-jwt-secret-bench-jwt-secret-bench', COOKIE_SECRET: 'bench-cookie-secret-bench-cookie-secret',
        ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'), HOST: '127.0.0.1', APP_URL: base,
        RUNTIME_RUN_AS_USER: '', OPENROUTER_API_KEY: PROVIDER_KEY, OPENROUTER_BASE_URL: providerBase,
        RATE_LIMIT_AUTH: '1000000', RATE_LIMIT_CHAT: '100000000', RATE_LIMIT_AGENTS: '1000000', RATE_LIMIT_INSTANCE: '1000000',
        AGENT_REPLY_TIMEOUT_MS: '20000', AGENT_RUNTIME: runtime, DOCKER_HOST: info.host, RUNTIME_DOCKER_IMAGE: info.image,
      }, port);
      children.push(child);
      return { base, owner, callers: await makeUsers(base, owner, users) };
    };
    const provision = async (s: Awaited<ReturnType<typeof service>>, perUser: number) => {
      const ids: string[][] = s.callers.map(() => []);
      const started = performance.now();
      await Promise.all(
        s.callers.map(async (c, u) => {
          for (let i = 0; i < perUser; i++) {
            const r = await send(s.base, 'POST', '/api/agents/provision', c.headers, { name: `Bench ${u}-${i}` });
            if (r.status === 201) ids[u]!.push((JSON.parse(r.body) as { agent: { id: string } }).agent.id);
          }
        }),
      );
      const total = ids.flat().length;
      let row = { running: 0, failed: 0 };
      while (performance.now() < started + 120_000) {
        row = (await s.owner.query(`select count(*) filter (where status = 'running')::int as running, count(*) filter (where status = 'error')::int as failed from agents`)).rows[0];
        if (row.running + row.failed >= total) break;
        await sleep(20);
      }
      return { ids, total, ...row, ms: performance.now() - started };
    };

    // ---- 1. provisioning and lifecycle on docker ----
    const docker = await service('docker');
    const p = await provision(docker, Math.ceil(agentsTotal / users));
    const lifecycle: number[] = [];
    let lifecycleErrors = 0;
    for (let round = 0; round < lifecycleRounds; round++) {
      for (const c of docker.callers) {
        for (const command of ['stop', 'start', 'restart']) {
          const t0 = performance.now();
          const r = await send(docker.base, 'POST', `/api/instance/${c.id}/${command}`, c.headers);
          lifecycle.push(performance.now() - t0);
          if (r.status !== 200) lifecycleErrors++;
        }
      }
    }
    const lc = quantiles(lifecycle);
    console.log(`\nAgents on docker (a real Docker Engine, image ${info.image}): ${p.total} agents for ${users} users through POST /api/agents/provision and the queue`);
    console.log(`  all running after ${fmt(p.ms)} ms (${p.running} running, ${p.failed} error; one container per user)   target: under 15000 ms`);
    console.log(`  lifecycle stop/start/restart on ${users} users x ${lifecycleRounds}: ${lifecycle.length} calls, p50 ${fmt(lc.p50)} ms, p99 ${fmt(lc.p99)} ms, max ${fmt(lc.max)} ms, errors ${lifecycleErrors}   target: p99 under 2000 ms`);

    // ---- 2. chat: docker vs process, same run ----
    const proc = await service('process');
    const q = await provision(proc, 1);
    const chatTarget = (s: { base: string; callers: { headers: Record<string, string> }[] }, ids: string[][], u: number): Target => ({
      url: `${s.base}/api/chat`,
      headers: { ...s.callers[u]!.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ agentId: ids[u]![0], content: 'Say hello to the benchmark.' }),
    });
    const p50s = { process: [] as number[], docker: [] as number[] };
    const p99s = { process: [] as number[], docker: [] as number[] };
    let errors = 0;
    for (let u = 0; u < users; u++) {
      await sequential(chatTarget(docker, p.ids, u), 0.2); // warm each agent's path once
      await sequential(chatTarget(proc, q.ids, u), 0.2);
    }
    const added: number[] = [];
    for (let round = 0; round < opts.rounds; round++) {
      const u = round % users; // another agent each round: no conversation grows long
      // message by message, process then docker: both see the same moment's load
      const [pr, dk] = await alternating([chatTarget(proc, q.ids, u), chatTarget(docker, p.ids, u)], opts.seconds * 2);
      for (const [name, r] of [['process', pr!], ['docker', dk!]] as const) {
        p50s[name].push(r.p50);
        p99s[name].push(r.p99);
        errors += r.errors;
      }
      added.push(dk!.p50 - pr!.p50);
    }
    const pr50 = median(p50s.process), dk50 = median(p50s.docker);
    console.log(`  POST /api/chat c=1, ${opts.rounds} rounds of ${opts.seconds * 2}s alternating message by message (medians): p50 process / docker ${fmt(pr50)} / ${fmt(dk50)} ms, added ${fmt(median(added))} ms (rounds: ${added.map((a) => a.toFixed(2)).join(', ')})   target: within 2 ms`);
    console.log(`  p99 process / docker: ${fmt(median(p99s.process))} / ${fmt(median(p99s.docker))} ms, errors ${errors}`);
    return { allRunningMs: p.ms, lifecycleP99: lc.p99, addedP50: median(added) };
  } finally {
    for (const c of children) c.kill('SIGTERM');
    // a docker service stops its containers on SIGTERM
    await Promise.all(children.map((c) => waitExit(c, 20_000)));
    await Promise.all(pools.map((x) => x.end()));
    for (const db of dbs) await db.drop();
    await engine.stop();
  }
}
