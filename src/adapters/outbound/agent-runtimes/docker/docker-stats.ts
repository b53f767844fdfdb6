/** The part of `GET /containers/{id}/stats?stream=false` the runtime reads (Engine API v1.43). */
export interface EngineStats {
  cpu_stats?: { cpu_usage?: { total_usage?: number; percpu_usage?: number[] }; system_cpu_usage?: number; online_cpus?: number };
  precpu_stats?: { cpu_usage?: { total_usage?: number }; system_cpu_usage?: number };
  memory_stats?: { usage?: number; limit?: number; stats?: { inactive_file?: number; total_inactive_file?: number; cache?: number } };
  pids_stats?: { current?: number };
}

/**
 * CPU percent as `docker stats` computes it: the container's CPU time over the host's in the
 * sample's window, times the online CPUs (100 per busy core, summed). 0 when the window is empty
 * (the first sample after start has no previous reading).
 */
export function cpuPercentOf(s: EngineStats): number {
  const cpuDelta = (s.cpu_stats?.cpu_usage?.total_usage ?? 0) - (s.precpu_stats?.cpu_usage?.total_usage ?? 0);
  const systemDelta = (s.cpu_stats?.system_cpu_usage ?? 0) - (s.precpu_stats?.system_cpu_usage ?? 0);
  const cpus = s.cpu_stats?.online_cpus ?? s.cpu_stats?.cpu_usage?.percpu_usage?.length ?? 1;
  if (cpuDelta <= 0 || systemDelta <= 0) return 0;
  return Math.round((cpuDelta / systemDelta) * cpus * 1000) / 10;
}

/** Memory in use as `docker stats` shows it: usage minus the reclaimable page cache (cgroup v2 `inactive_file`, v1 `total_inactive_file`). */
export function memoryUsageOf(s: EngineStats): number {
  const usage = s.memory_stats?.usage ?? 0;
  const cache = s.memory_stats?.stats?.inactive_file ?? s.memory_stats?.stats?.total_inactive_file ?? 0;
  return Math.max(0, usage - cache);
}
