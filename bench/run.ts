import { benchAgents } from './agents.bench.js';
import { benchAiChat } from './ai-chat.bench.js';
import { benchDockerAgents } from './docker-agents.bench.js';
import { benchGatewayOverhead } from './gateway-overhead.bench.js';
import { benchGateway } from './gateway.bench.js';
import { benchGatewayX402 } from './gateway-x402.bench.js';
import { benchGatewayMppEvm } from './gateway-mpp-evm.bench.js';
import { benchMixedLoad } from './mixed-load.bench.js';
import { benchSettingsAuth } from './settings-auth.bench.js';
import { benchStartTime } from './start-time.bench.js';
import { benchWebhook } from './webhook.bench.js';

/**
 * `npm run bench`: every benchmark, each against a baseline measured in the same run.
 * `BENCH_ONLY=settings` (or `webhook`, `ai-chat`, `agents`, `docker`, `start`, `gateway`, `load`, comma-separated) runs just those.
 * `docker` needs a Docker Engine: DOCKER_HOST, else it starts a private dockerd as root (and says so when it cannot).
 * `load` is the 60-second mixed workload (BENCH_LOAD_SECONDS changes its length).
 * BENCH_BASELINE_REF=<commit> (ai-chat, agents, settings): the service built from that commit is measured
 * too, in the same interleaved rounds (bench/support.ts baselineService); BENCH_VARIANT_NODE_FLAGS
 * (settings): this build again with those node flags, measured the same way.
 */
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
/** BENCH_ROUND_MS: the length of one round, for a quick run (BENCH_ROUND_MS=1000); else BENCH_SECONDS. */
const roundMs = Number(process.env.BENCH_ROUND_MS ?? seconds * 1000);
const only = process.env.BENCH_ONLY?.split(',');
const selected = (name: string) => !only || only.includes(name);
if (selected('settings')) await benchSettingsAuth({ rounds, roundMs, connections: Number(process.env.BENCH_CONNECTIONS ?? 50), users: Number(process.env.BENCH_SETTINGS_USERS ?? 200) });
if (selected('webhook')) await benchWebhook({ events: Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1000), concurrency: Number(process.env.BENCH_CONNECTIONS ?? 20) });
/** BENCH_AI_THROUGHPUT=0 skips the c=50 rounds of ai-chat (the c=1 overhead alone). */
if (selected('ai-chat')) await benchAiChat({ rounds, seconds: roundMs / 1000, throughput: process.env.BENCH_AI_THROUGHPUT !== '0' });
/** BENCH_AGENTS_USERS, BENCH_AGENTS_TOTAL: the agents round's users and agents (20 and 100). */
if (selected('agents')) await benchAgents({ rounds, seconds: roundMs / 1000, users: Number(process.env.BENCH_AGENTS_USERS ?? 20), agents: Number(process.env.BENCH_AGENTS_TOTAL ?? 100) });
if (selected('docker')) await benchDockerAgents({ rounds, seconds: roundMs / 1000 });
if (selected('gateway')) {
  await benchGateway({ payments: Number(process.env.BENCH_GATEWAY_PAYMENTS ?? 200) });
  await benchGatewayOverhead({ rounds, seconds });
  await benchGatewayX402({ payments: Number(process.env.BENCH_X402_PAYMENTS ?? 100) });
  await benchGatewayMppEvm({ payments: Number(process.env.BENCH_MPP_EVM_PAYMENTS ?? 100) });
}
if (selected('start')) await benchStartTime({ runs: Number(process.env.BENCH_START_RUNS ?? 5), coldRuns: Number(process.env.BENCH_START_COLD_RUNS ?? 5) });
if (selected('load')) await benchMixedLoad({ seconds: Number(process.env.BENCH_LOAD_SECONDS ?? 60) });
process.exit(process.exitCode ?? 0);
