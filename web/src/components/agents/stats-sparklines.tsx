import { useEffect, useState } from 'preact/hooks';
import { Chart } from '../charts/chart.js';
import { CHART_COLORS } from '../charts/colors.js';

/** How many readings the sparklines keep: five minutes at the panel's 5 s refresh. */
const KEPT = 60;

interface Reading {
  t: number;
  cpu: number;
  memory: number;
}

/** A percent figure as the stats send it (`"2.0%"`, a number, or `N/A`): a number, or null. */
const percentOf = (v: string | number | undefined): number | null => {
  if (typeof v === 'number') return v;
  const n = Number.parseFloat(v ?? '');
  return Number.isFinite(n) ? n : null;
};

/**
 * CPU and memory (percent) of the live stats as two sparklines: each refresh of the stats panel
 * adds a reading, the last 60 are kept while the page is open (nothing stores them: the history
 * starts when the page opens). A reading without figures (a stopped agent) is left out.
 */
export function StatsSparklines({ stats }: { stats: Record<string, string | number> | undefined }) {
  const [readings, setReadings] = useState<Reading[]>([]);
  useEffect(() => {
    if (!stats) return;
    const cpu = percentOf(stats.cpu);
    const memory = percentOf(stats.memoryPercent);
    if (cpu === null || memory === null) return;
    setReadings((r) => [...r, { t: Date.now() / 1000, cpu, memory }].slice(-KEPT));
  }, [stats]);
  if (readings.length === 0) return null;
  const last = readings[readings.length - 1]!;
  const x = readings.map((r) => r.t);
  const span = `${readings.length} ${readings.length === 1 ? 'reading' : 'readings'} since this page opened`;
  const line = (key: 'cpu' | 'memory', label: string, color: string) => {
    const values = readings.map((r) => r[key]);
    return (
      <Chart
        id={`${key}-sparkline`}
        title={label}
        summary={`Now ${last[key].toFixed(1)}%, highest ${Math.max(...values).toFixed(1)}% over ${span}.`}
        sparkline
        height={40}
        data={{ x, series: [{ label, values, color }] }}
      />
    );
  };
  return (
    <div class="sparklines">
      {line('cpu', 'CPU (percent)', CHART_COLORS.accent)}
      {line('memory', 'Memory (percent)', CHART_COLORS.warn)}
    </div>
  );
}
