import type { BucketPlan } from '../../domain/metrics/metrics-range.js';
import type { UserId } from '../../domain/shared/ids.js';

/** Platform-wide counts, read as the system role (no user's rows are returned, only totals). */
export interface PlatformFigures {
  agents: { total: number; running: number; stopped: number; provisioning: number; error: number };
  messages: { today: number; thisWeek: number; thisMonth: number };
  deployments: { provisioned: number; failed: number };
  /** Minutes with a platform tick over the minutes since the first tick of the last 30 days; null without ticks. */
  platformUptimePercent: number | null;
  /** Mean over agents of the share of time since their first event spent up (after provisioned/started/repaired). */
  averageAgentUptimePercent: number | null;
  /** Request timings of the last 24 hours. */
  requests: { count: number; errors: number; totalMs: number };
  databaseBytes: number;
}

export interface InstanceSample {
  userId: UserId;
  cpuPercent: number;
  memoryPercent: number;
  rssBytes: number;
}

/** One route's requests within one minute, by status class (2 = 2xx...). */
export interface RequestTimingRow {
  minute: Date;
  route: string;
  statusClass: number;
  count: number;
  totalMs: number;
}

/** What the system unit of work records and reads for metrics. */
export interface SystemMetricsStore {
  platform(now: Date): Promise<PlatformFigures>;
  /** Users whose instance is marked running. */
  runningInstances(): Promise<UserId[]>;
  recordSamples(samples: InstanceSample[], at: Date): Promise<void>;
  /** Marks `minute` as one in which the platform was up (idempotent). */
  tick(minute: Date): Promise<void>;
  /** Deletes samples and ticks older than `before`, request timings too; returns the samples deleted. */
  prune(before: Date): Promise<number>;
  /** Adds to the per-minute aggregates (an upsert that sums). */
  addRequestTimings(rows: RequestTimingRow[]): Promise<void>;
}

export interface HistoryBucket {
  timestamp: Date;
  /** Averages of the samples in the bucket, 0 without samples. */
  cpu: number;
  memory: number;
  messages: number;
  errors: number;
}

export interface UserPerformanceFigures {
  latestSample: { cpuPercent: number; memoryPercent: number } | null;
  answered: number;
  failed: number;
  averageAnswerMs: number | null;
}

export interface UserSummaryFigures {
  revenueCents: { thisMonth: number; previousMonth: number; total: number };
  bookings: { released: number; held: number };
  fans: { total: number; active: number; superfans: number; casual: number; newThisMonth: number; newPreviousMonth: number };
  skills: { enabled: number; total: number; installedThisMonth: number; installedPreviousMonth: number };
}

/** The acting user's own figures (RLS keeps them to that user). */
export interface UserMetricsReader {
  history(plan: BucketPlan): Promise<{ buckets: HistoryBucket[]; averages: { cpu: number; memory: number } }>;
  performance(since: Date): Promise<UserPerformanceFigures>;
  summary(now: Date): Promise<UserSummaryFigures>;
  /** Units metered per UTC day (`YYYY-MM-DD`) from `fromDay` for `days` days, every day present (zeros when none), oldest first. */
  dailyUsage(fromDay: string, days: number): Promise<DailyUsage[]>;
}

export interface DailyUsage {
  day: string;
  usedUnits: number;
  /** Of usedUnits, those paid with credits (the rest came from the plan's daily allowance). */
  creditUnits: number;
}
