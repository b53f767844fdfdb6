import type { PlatformMetrics } from '../../../../application/metrics/get-platform-metrics.use-case.js';
import type { UserHistory } from '../../../../application/metrics/get-user-metrics-history.use-case.js';
import type { UserPerformance } from '../../../../application/metrics/get-user-performance.use-case.js';
import type { UserSummary } from '../../../../application/metrics/get-user-summary.use-case.js';

/** The spec's "Platform metrics fields", field by field. */
export function platformMetricsBody(m: PlatformMetrics) {
  return {
    agents: { total: m.agents.total, active: m.agents.active, inactive: m.agents.inactive, failed: m.agents.failed },
    messages: { today: m.messages.today, thisWeek: m.messages.thisWeek, thisMonth: m.messages.thisMonth },
    deployments: { total: m.deployments.total, successful: m.deployments.successful, failed: m.deployments.failed },
    uptime: { platformUptime: m.uptime.platformUptime, averageAgentUptime: m.uptime.averageAgentUptime },
    performance: { averageResponseTime: m.performance.averageResponseTime, successRate: m.performance.successRate, errorRate: m.performance.errorRate },
    storage: { used: m.storage.used, total: m.storage.total, percentUsed: m.storage.percentUsed },
  };
}

export function historyBody(h: UserHistory) {
  return {
    userId: h.userId,
    timeRange: h.timeRange,
    metrics: h.metrics.map((b) => ({ timestamp: b.timestamp, cpu: b.cpu, memory: b.memory, messages: b.messages, errors: b.errors })),
    averages: { cpu: h.averages.cpu, memory: h.averages.memory, messages: h.averages.messages, errors: h.averages.errors },
  };
}

export function performanceBody(p: UserPerformance) {
  return { cpu: p.cpu, memory: p.memory, errorRate: p.errorRate, responseTime: p.responseTime };
}

/** The spec's "Summary fields". */
export function summaryBody(s: UserSummary) {
  return {
    revenue: { month: s.revenue.month, total: s.revenue.total, change: s.revenue.change },
    bookings: { completed: s.bookings.completed, pending: s.bookings.pending, conversion: s.bookings.conversion },
    fans: {
      total: s.fans.total,
      active: s.fans.active,
      growth: s.fans.growth,
      segmentation: { superfans: s.fans.segmentation.superfans, casual: s.fans.segmentation.casual, new: s.fans.segmentation.new },
    },
    streams: { monthlyListeners: s.streams.monthlyListeners, monthlyStreams: s.streams.monthlyStreams, growth: s.streams.growth },
    skills: { active: s.skills.active, total: s.skills.total, growth: s.skills.growth },
  };
}
