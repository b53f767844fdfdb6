import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import '../../styles/charts.css';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  /** A CSS colour; uPlot draws on a canvas, so the theme's variables are read once here. */
  color: string;
  /** Bars for counts per bucket; a line for a level (an allowance) or a running figure. */
  style?: 'bars' | 'line';
  /** Another y scale (drawn with its own axis on the right) for a figure of another size. */
  scale?: string;
}

export interface ChartData {
  /** The buckets' starts, as Unix seconds (uPlot's time axis). */
  x: number[];
  series: ChartSeries[];
}

/**
 * A uPlot chart (canvas) sized to its container. What it was given is on the figure as
 * `data-chart` (JSON), so a test reads the figures and not the pixels; the caption and the
 * visually hidden table beside it are the chart for a screen reader. uPlot sets its few styles
 * through the CSSOM (element.style), which the console's `style-src 'self'` allows.
 */
export function Chart({ id, title, summary, data, height = 180, sparkline = false, table }: {
  id: string;
  title: string;
  /** One sentence with the figures that matter (totals, the peak, the allowance). */
  summary: string;
  data: ChartData;
  height?: number;
  /** A small chart without axes, legend or cursor (the live stats). */
  sparkline?: boolean;
  /** Rows of the accessible table: the bucket's label, then one cell per series. */
  table?: { head: string; rows: [string, ...(string | number)[]][] };
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const aligned = [data.x, ...data.series.map((s) => s.values)] as uPlot.AlignedData;
  const shape = `${sparkline}|${height}|${data.series.map((s) => `${s.label}:${s.style ?? 'line'}`).join(',')}`;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const extra = [...new Set(data.series.flatMap((s) => (s.scale ? [s.scale] : [])))];
    const range: uPlot.Scale.Range = (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.1 : 1];
    const opts: uPlot.Options = {
      width: Math.max(120, el.clientWidth || 300),
      height,
      legend: { show: !sparkline },
      cursor: { show: !sparkline },
      axes: sparkline ? [{ show: false }, { show: false }] : [{}, { size: 50 }, ...extra.map((scale) => ({ scale, side: 1 as const, size: 40, grid: { show: false } }))],
      scales: { x: { time: true }, y: { range }, ...Object.fromEntries(extra.map((k) => [k, { range }])) },
      series: [
        {},
        ...data.series.map((s) => ({
          label: s.label,
          stroke: s.color,
          ...(s.scale ? { scale: s.scale } : {}),
          width: sparkline ? 1.5 : 2,
          ...(s.style === 'bars' ? { fill: `${s.color}55`, paths: uPlot.paths.bars!({ size: [0.7, 40] }), points: { show: false } } : { points: { show: false } }),
        })),
      ],
    };
    plot.current = new uPlot(opts, aligned, el);
    const resize = new ResizeObserver(() => plot.current?.setSize({ width: Math.max(120, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
    // the chart is rebuilt only when its shape changes; new figures go through setData below
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shape]);

  useEffect(() => {
    plot.current?.setData(aligned);
  });

  return (
    // named by its figcaption (the figure's implicit name), not aria-labelledby: a labelled figure would
    // also answer "find the field labelled X" for any X its caption contains
    <figure class={sparkline ? 'chart chart-sparkline' : 'chart'} data-chart={JSON.stringify(data)} data-testid={id}>
      <figcaption id={`${id}-caption`}>
        <span class={sparkline ? 'chart-title' : 'chart-title strong'}>{title}</span>
        <span class="chart-summary">{summary}</span>
      </figcaption>
      <div ref={box} class="chart-canvas" aria-hidden="true" />
      {table ? (
        // hidden by a wrapper: a table is never narrower than its cells, so a hidden table itself
        // would still widen the page on a phone
        <div class="visually-hidden chart-table">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{table.head}</th>
              {data.series.map((s) => (
                <th key={s.label} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map(([label, ...cells]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {cells.map((c, i) => (
                  <td key={i}>{c}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      ) : null}
    </figure>
  );
}
