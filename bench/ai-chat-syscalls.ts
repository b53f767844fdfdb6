/*
 * Syscalls and CPU per POST /api/ai/chat at concurrency 1 (`npx tsx bench/ai-chat-syscalls.ts`,
 * needs strace and TEST_DATABASE_URL or BENCH_DATABASE_URL): the built service (ENTRY, default
 * dist/service/main.js; ENTRY_CWD for another build's folder) against the fake provider, 50
 * signed-in network subscribers taking turns, 1,500 warm-up calls, then `strace -f -c -p` over K
 * calls (default 2,000), JSON then streamed. NO_STRACE=1 measures the CPU alone; TAG names the
 * strace output files in /tmp/aichat.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { answer, makeCallers, messages, MODEL, PROVIDER_KEY } from './ai-chat.bench.js';
import { benchDatabase, freePort, processCpuMs, startProcess, startFakeProvider } from './support.js';

const entry = process.env.ENTRY ?? 'dist/service/main.js';
const cwd = process.env.ENTRY_CWD;
const K = Number(process.env.K ?? 2000);
mkdirSync('/tmp/aichat', { recursive: true });
const { child: provider, baseUrl: providerBase } = await startFakeProvider(PROVIDER_KEY);
const db = await benchDatabase();
const port = await freePort();
const app = await startProcess(entry, {
  DATABASE_URL: db.url, NODE_ENV: 'production', LOG_LEVEL: 'warn', SERVICE_ROLE: 'api',
  JWT_SECRET: 'bench-jwt-secret-bench-jwt-secret-bench', COOKIE_SECRET: 'bench-cookie-secret-bench-cookie-secret',
  ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'), HOST: '127.0.0.1', APP_URL: `http://127.0.0.1:${port}`,
  RATE_LIMIT_AUTH: '1000000', RATE_LIMIT_CHAT: '100000000', OPENAI_API_KEY: PROVIDER_KEY, OPENAI_BASE_URL: providerBase,
}, port, cwd);
const base = `http://127.0.0.1:${port}`;
const sessions: Record<string, string>[] = [];
await makeCallers(base, db.url, 50, sessions);
let next = 0;
const target = (stream: boolean) => ({
  url: `${base}/api/ai/chat`, body: JSON.stringify({ messages, model: MODEL }),
  headers: () => ({ ...sessions[next++ % sessions.length]!, 'content-type': 'application/json', ...(stream ? { accept: 'text/event-stream' } : {}) }),
});
async function run(stream: boolean, n: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let errs = 0;
  for (let i = 0; i < n; i++) { const r = await answer(target(stream), agent); if (r.status !== 200 || !r.body.includes('world')) { errs++; if (errs < 3) console.log(r.status, r.body.slice(0, 200)); } }
  agent.destroy();
  return errs;
}
try {
  for (const stream of [false, true]) {
    await run(stream, 1500);
    const mode = stream ? 'stream' : 'json';
    const out = `/tmp/aichat/strace-${process.env.TAG ?? 'x'}-${mode}.txt`;
    const st = process.env.NO_STRACE ? null : spawn('strace', ['-f', '-c', '-o', out, '-p', String(app.pid)], { stdio: 'ignore' });
    if (st) await new Promise((r) => setTimeout(r, 1500));
    const cpu0 = processCpuMs(app.pid);
    const t0 = performance.now();
    const errs = await run(stream, K);
    const wall = performance.now() - t0;
    const cpu = processCpuMs(app.pid) - cpu0;
    if (st) { st.kill('SIGINT'); await new Promise((r) => st.once('exit', r)); }
    console.log(`${mode}: ${K} calls, errors ${errs}, wall ${(wall / K * 1000).toFixed(0)} µs/call, service CPU ${(cpu / K * 1000).toFixed(0)} µs/call`);
    if (st) {
      const lines = readFileSync(out, 'utf8').split('\n').filter((l) => /^\s*[\d.]+\s+[\d.]+\s+\d+\s+\d+/.test(l));
      for (const l of lines) { const f = l.trim().split(/\s+/); const calls = Number(f[3]); const name = f[f.length - 1] ?? '?'; if (calls / K >= 0.05) console.log(`   ${name.padEnd(16)} ${(calls / K).toFixed(2)}/call`); }
    }
  }
} finally {
  app.kill('SIGTERM'); provider.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await db.drop();
}
