/** The theme's colours for canvases (a canvas cannot read CSS variables): the values of styles.css. */
export const CHART_COLORS = { accent: '#0b57d0', danger: '#b42318', ok: '#1a7f37', muted: '#57606a', warn: '#9a6700' } as const;

/** Unix seconds, uPlot's time unit. */
export const unixSeconds = (iso: string): number => Math.floor(new Date(iso).getTime() / 1000);
