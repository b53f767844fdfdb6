import { Agent } from 'node:http';
import { makeCallers, MODEL, messages, once, PROVIDER_KEY, sequential, throughput, type Target } from './ai-chat.bench.js';
import { benchDatabase, buildService, median, startBenchService, startFakeProvider } from './support.js';

/**
 * The gateway's overhead for generate-text on the subscription path (issue 10's benchmark): the
 * compiled service in a child process, OPENAI_BASE_URL at a fake OpenAI server in another, against
 * the same fake called directly. Concurrency 1: added p50 and p99 (target p50 under 3 ms);
 * concurrency 50: throughput ratio, each connection a different subscribed user. Medians of
 * interleaved rounds. Skipped, saying so, while the service registers no generate-text plugin.
 */
export async function benchGatewayOverhead(opts: { rounds: number; seconds: number; connections?: number }) {
  const connections = opts.connections ?? 50;
  const db = await benchDatabase();
  const { child: provider, baseUrl: providerBase } = await startFakeProvider(PROVIDER_KEY);
  const { child: app, base } = await startBenchService(buildService(), db.url, 'api', {
    RATE_LIMIT_AUTH: '1000000', RATE_LIMIT_GATEWAY: '100000000', OPENAI_API_KEY: PROVIDER_KEY, OPENAI_BASE_URL: providerBase,
  });
  try {
    const callers = await makeCallers(`${base}`, db.url, connections);
    const direct: Target = {
      url: `${providerBase}/chat/completions`,
      body: JSON.stringify({ model: 'gpt-4o-mini', messages }),
      headers: () => ({ authorization: `Bearer ${PROVIDER_KEY}`, 'content-type': 'application/json' }),
    };
    const gateway: Target = {
      url: `${base}/api/v1/gateway`,
      body: JSON.stringify({ plugin: 'generate-text', messages, model: MODEL }),
      headers: (i) => ({ authorization: callers[i % callers.length]!.authorization!, 'content-type': 'application/json' }),
    };
    const probe = await fetch(gateway.url, { method: 'POST', headers: gateway.headers(0), body: gateway.body });
    if (probe.status !== 200) {
      console.log(`\nGateway overhead (generate-text): skipped, the service answered ${probe.status} ${(await probe.text()).slice(0, 80)} (no generate-text plugin registered yet?)`);
      return null;
    }
    for (let i = 0; i < callers.length; i++) await once({ ...gateway, headers: () => gateway.headers(i) }, new Agent());
    for (const t of [direct, gateway]) await sequential(t, 1);
    const r = { direct: { p50: [] as number[], p99: [] as number[], rps: [] as number[] }, gateway: { p50: [] as number[], p99: [] as number[], rps: [] as number[] } };
    let errors = 0;
    for (let round = 0; round < opts.rounds; round++) {
      for (const [name, t] of [['direct', direct], ['gateway', gateway]] as const) {
        const lat = await sequential(t, opts.seconds);
        r[name].p50.push(lat.p50);
        r[name].p99.push(lat.p99);
        const thr = await throughput(t, connections, opts.seconds);
        r[name].rps.push(thr.rps);
        errors += lat.errors + thr.errors;
      }
    }
    const d = { p50: median(r.direct.p50), p99: median(r.direct.p99), rps: median(r.direct.rps) };
    const g = { p50: median(r.gateway.p50), p99: median(r.gateway.p99), rps: median(r.gateway.rps) };
    console.log(`\nGateway overhead: POST /api/v1/gateway generate-text (subscription) vs the same fake OpenAI server directly, ${opts.rounds} interleaved rounds of ${opts.seconds}s (medians)`);
    console.log(`  c=1 p50 direct ${d.p50.toFixed(2)} / gateway ${g.p50.toFixed(2)} / added ${(g.p50 - d.p50).toFixed(2)} ms (target under 3 ms)`);
    console.log(`  c=1 p99 direct ${d.p99.toFixed(2)} / gateway ${g.p99.toFixed(2)} / added ${(g.p99 - d.p99).toFixed(2)} ms`);
    console.log(`  c=${connections} req/s direct ${d.rps.toFixed(0)} / gateway ${g.rps.toFixed(0)} / ratio ${(g.rps / d.rps).toFixed(2)}   errors ${errors}`);
    return { addedP50: g.p50 - d.p50, addedP99: g.p99 - d.p99, ratio: g.rps / d.rps };
  } finally {
    app.kill('SIGTERM');
    provider.kill('SIGTERM');
    await new Promise((res) => setTimeout(res, 500));
    await db.drop();
  }
}
