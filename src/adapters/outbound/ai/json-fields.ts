/**
 * Small readers for vendor JSON of unknown shape. Adapters pick the few fields they need and
 * treat anything else as a malformed answer, instead of trusting a cast.
 */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `at(json, 'choices', 0, 'message')`: undefined as soon as a step does not exist. */
export function at(value: unknown, ...path: readonly (string | number)[]): unknown {
  let current = value;
  for (const step of path) {
    if (typeof step === 'number') current = Array.isArray(current) ? current[step] : undefined;
    else current = isRecord(current) ? current[step] : undefined;
    if (current === undefined) return undefined;
  }
  return current;
}

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const arr = (v: unknown): readonly unknown[] | undefined => (Array.isArray(v) ? v : undefined);
