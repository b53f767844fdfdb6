import { useEffect, useRef } from 'preact/hooks';

/**
 * Calls `tick` every `ms` while the component is mounted (and `ms` is not null); the timer stops
 * on unmount. A tick never overlaps the previous one: the next waits until it settled.
 */
export function useInterval(tick: () => Promise<unknown> | void, ms: number | null): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (ms === null) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const loop = async () => {
      try {
        await latest.current();
      } catch {
        // the page shows its own errors; the timer keeps going
      }
      if (!stopped) timer = setTimeout(loop, ms);
    };
    timer = setTimeout(loop, ms);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [ms]);
}
