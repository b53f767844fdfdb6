import type { benchAgents } from './agents.bench.js';
import type { benchAiChat } from './ai-chat.bench.js';
import type { benchSettingsAuth } from './settings-auth.bench.js';
import type { benchStartTime } from './start-time.bench.js';
import { ratio } from './support.js';
import { here, SLOWER, TARGETS } from './targets.js';

export interface TableInputs {
  settings?: Awaited<ReturnType<typeof benchSettingsAuth>>;
  aiChat?: Awaited<ReturnType<typeof benchAiChat>>;
  agents?: Awaited<ReturnType<typeof benchAgents>>;
  start?: Awaited<ReturnType<typeof benchStartTime>>;
}

const us = (x: number) => (Number.isFinite(x) ? `${Math.round(x).toLocaleString('en-US')} µs` : '-');
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)} ms` : '-');
const met = (ok: boolean) => (ok ? 'met' : 'MISSED');

/**
 * The table as one run measured it: each figure, the CPU it costs (the service's process and
 * the PostgreSQL backends, per request, each also over the bare baseline's CPU per request measured
 * in the same bench's rounds), and the target as it must read on this machine for the figure to
 * hold on one 3x slower (bench/targets.ts).
 */
export function printTable(t: TableInputs): void {
  const rows: string[][] = [];
  const cpu = (serviceUs: number, pgUs: number, bare: { serviceUs: number; pgUs: number }) =>
    `service ${us(serviceUs)} (${ratio(serviceUs, bare.serviceUs)}), PostgreSQL ${us(pgUs)} (${ratio(pgUs, bare.pgUs)}); both ${ratio(serviceUs + pgUs, bare.serviceUs + bare.pgUs)}`;
  if (t.settings) {
    const s = t.settings;
    const bare = s.bareCpu;
    rows.push(['session GET /api/settings / bare node+pg', s.ratios.sessionToBare.toFixed(2), cpu(s.paths.session!.cpuUs, s.paths.session!.pgUs, bare), `>= ${TARGETS.sessionToBare}`, met(s.ratios.sessionToBare >= TARGETS.sessionToBare)]);
    rows.push(['API key / session', s.ratios.apiKeyToSession.toFixed(2), cpu(s.paths.apiKey!.cpuUs, s.paths.apiKey!.pgUs, bare), `>= ${TARGETS.keyToSession}`, met(s.ratios.apiKeyToSession >= TARGETS.keyToSession)]);
    rows.push(['JWT / session', s.ratios.jwtToSession.toFixed(2), cpu(s.paths.jwt!.cpuUs, s.paths.jwt!.pgUs, bare), `>= ${TARGETS.jwtToSession}`, met(s.ratios.jwtToSession >= TARGETS.jwtToSession)]);
    rows.push(['bare node+pg (the CPU ratios\' base)', `${s.paths['bare node+pg']!.rps.toFixed(0)} req/s`, `process ${us(bare.serviceUs)}, PostgreSQL ${us(bare.pgUs)}`, '', '']);
  }
  if (t.aiChat) {
    const a = t.aiChat;
    const cpuMax = TARGETS.aiChatCpuX;
    for (const mode of ['json', 'stream'] as const) {
      const r = a[mode];
      const both = (r.serviceUs + r.pgUs) / (a.bare.serviceUs + a.bare.pgUs);
      rows.push([`POST /api/ai/chat added p50, ${mode}`, ms(r.addedP50), `${cpu(r.serviceUs, r.pgUs, a.bare)}; c=1 bare: ${ratio(r.serviceUs + r.pgUs, a.bareC1.serviceUs + a.bareC1.pgUs)}`, `<= ${here(TARGETS.aiChatAddedMs).toFixed(2)} ms; CPU both <= ${cpuMax.toFixed(1)}x`, `${met(r.addedP50 <= here(TARGETS.aiChatAddedMs))}; CPU ${met(both <= cpuMax)}`]);
      const v1Both = (r.v1ServiceUs + r.v1PgUs) / (a.bare.serviceUs + a.bare.pgUs);
      rows.push([`POST /v1/chat/completions added p50, ${mode}`, ms(r.v1AddedP50), cpu(r.v1ServiceUs, r.v1PgUs, a.bare), `<= ${here(TARGETS.aiChatAddedMs).toFixed(2)} ms; CPU both <= ${cpuMax.toFixed(1)}x`, `${met(r.v1AddedP50 <= here(TARGETS.aiChatAddedMs))}; CPU ${met(v1Both <= cpuMax)}`]);
    }
  }
  if (t.agents) {
    const g = t.agents;
    const both = (g.serviceUs + g.pgUs) / (g.bare.serviceUs + g.bare.pgUs);
    rows.push(['POST /api/chat to a running agent, added p50 (p99)', `${ms(g.addedP50)} (${ms(g.addedP99)})`, `${cpu(g.serviceUs, g.pgUs, g.bare)}; c=1 bare: ${ratio(g.serviceUs + g.pgUs, g.bareC1.serviceUs + g.bareC1.pgUs)}`, `<= ${here(TARGETS.agentAddedMs).toFixed(2)} ms (p99 <= ${here(TARGETS.agentAddedP99Ms).toFixed(2)}); CPU both <= ${TARGETS.agentCpuX.toFixed(1)}x`, `${met(g.addedP50 <= here(TARGETS.agentAddedMs) && g.addedP99 <= here(TARGETS.agentAddedP99Ms))}; CPU ${met(both <= TARGETS.agentCpuX)}`]);
    rows.push([`${g.agentsInFlight} agents at once, messages/s`, g.messagesPerSecond.toFixed(0), cpu(g.concServiceUs, g.concPgUs, g.bare), `>= ${TARGETS.agentsPerSecond * SLOWER}`, met(g.messagesPerSecond >= TARGETS.agentsPerSecond * SLOWER)]);
  }
  if (t.start) {
    const s = t.start;
    rows.push(['cold / warm start', `${(s.coldMs / 1000).toFixed(2)} / ${(s.warmMs / 1000).toFixed(2)} s`, `service CPU ${(s.coldCpuMs / 1000).toFixed(2)} / ${(s.warmCpuMs / 1000).toFixed(2)} s (${ratio(s.coldCpuMs, s.bareCpuMs)} / ${ratio(s.warmCpuMs, s.bareCpuMs)} of a bare node http server's start)`, `< ${here(TARGETS.coldStartS).toFixed(2)} / ${here(TARGETS.warmStartS).toFixed(2)} s`, `${met(s.coldMs / 1000 < here(TARGETS.coldStartS))} / ${met(s.warmMs / 1000 < here(TARGETS.warmStartS))}`]);
  }
  if (rows.length === 0) return;
  console.log(`\nThe performance table (medians of interleaved rounds; CPU per request from /proc, "x" = over the bare baseline's CPU per request in the same bench; targets as they must read here to hold on a machine ${SLOWER}x slower, bench/targets.ts)`);
  const head = ['figure', 'measured', 'CPU per request', `target here (/${SLOWER})`, ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}
