import type { AgentMessageFigures } from '../../../../application/ports/agent-repository.port.js';
import type { RuntimeStats } from '../../../../application/ports/agent-runtime.port.js';
import type { Agent } from '../../../../domain/agents/agent.js';
import type { Instance } from '../../../../domain/agents/instance.js';

const NA = 'N/A';
const percent = (n: number) => `${n.toFixed(1)}%`;
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** spec "Instance": every field a string; `startedAt` is empty before the first start. */
export const instanceBody = (i: Instance) => ({
  userId: i.userId,
  status: i.status,
  startedAt: i.startedAt ? i.startedAt.toISOString() : '',
  subdomain: i.subdomain,
  url: i.url,
  plan: i.plan,
  runtimeVersion: i.runtimeVersion,
});

/** spec "Instance stats": live figures, `N/A` when no runtime runs (never invented). */
export const instanceStatsBody = (i: Instance, s: RuntimeStats | null) => ({
  userId: i.userId,
  cpu: s ? percent(s.cpuPercent) : NA,
  memory: s ? megabytes(s.rssBytes) : NA,
  status: i.status,
  plan: i.plan,
  runtimeVersion: i.runtimeVersion,
});

export function formatUptime(ms: number): string {
  const total = Math.floor(ms / 1000);
  const d = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return d > 0 ? `${d}d ${h}h ${m}m ${s}s` : h > 0 ? `${h}h ${m}m ${s}s` : m > 0 ? `${m}m ${s}s` : `${s}s`;
}

/**
 * Message figures from the agent's events: processed = answered + failed; per hour = processed
 * in the last hour; average response = mean ms of the answered; rates as percents of processed.
 * With nothing processed the figures that would divide by zero are `N/A`.
 */
function messageFigures(f: AgentMessageFigures) {
  const processed = f.answered + f.failed;
  return {
    messagesProcessed: processed,
    messagesPerHour: f.sinceCount,
    averageResponseTime: f.averageAnswerMs === null ? NA : Math.round(f.averageAnswerMs),
    successRate: processed ? percent((f.answered / processed) * 100) : NA,
    errorRate: processed ? percent((f.failed / processed) * 100) : NA,
  };
}

/** spec "Agent stats", live variant (`status: ok`). */
export const agentStatsLive = (a: Agent, s: RuntimeStats | null, f: AgentMessageFigures) => ({
  agentId: a.id,
  cpu: s ? percent(s.cpuPercent) : NA,
  memory: s ? megabytes(s.rssBytes) : NA,
  memoryPercent: s ? percent(s.memoryPercent) : NA,
  network: NA,
  uptime: s ? s.uptimeMs : 0,
  uptimeFormatted: s ? formatUptime(s.uptimeMs) : NA,
  status: a.status,
  pids: s ? String(s.pids) : NA,
  ...messageFigures(f),
});

/** spec "Agent stats", mock variant (`status: mock`): the runtime did not answer; the stored figures only, numbers where the spec says so. */
export const agentStatsMock = (a: Agent, f: AgentMessageFigures, at: Date) => {
  const m = messageFigures(f);
  return {
    agentId: a.id,
    messagesProcessed: m.messagesProcessed,
    messagesPerHour: m.messagesPerHour,
    averageResponseTime: typeof m.averageResponseTime === 'number' ? m.averageResponseTime : 0,
    uptime: 0,
    successRate: m.successRate,
    errorRate: m.errorRate,
    timestamp: at.toISOString(),
  };
};
