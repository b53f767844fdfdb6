/**
 * Text the service keeps never holds a NUL character (U+0000): PostgreSQL's `text` and `jsonb`
 * cannot store it, so a value carrying one is refused where it enters rather than failing in the
 * database as a 500.
 */
export interface NulFound {
  /** From the value's root: object keys and array indexes. */
  readonly path: readonly (string | number)[];
  /** `key`: the last path element is itself the key holding the NUL. */
  readonly in: 'value' | 'key';
}

const NUL = '\u0000';

/** A path as a chain to its parent: building it costs nothing until a NUL is found. */
interface Step {
  readonly parent: Step | null;
  readonly key: string | number;
}

const pathOf = (step: Step | null): (string | number)[] => {
  const path: (string | number)[] = [];
  for (let s = step; s !== null; s = s.parent) path.push(s.key);
  return path.reverse();
};

/**
 * Where `value` (a string, or objects and arrays of any depth) holds a NUL, in a string or in a
 * key: at most `limit` places. Byte buffers are opaque and skipped. Iterative and linear in the
 * size of the value, so a deeply nested body can neither overflow the stack nor cost more than
 * parsing it did.
 */
export function findNul(value: unknown, limit = 10): NulFound[] {
  const found: NulFound[] = [];
  const pending: { value: unknown; at: Step | null }[] = [{ value, at: null }];
  while (pending.length > 0 && found.length < limit) {
    const { value: v, at } = pending.pop()!;
    if (typeof v === 'string') {
      if (v.includes(NUL)) found.push({ path: pathOf(at), in: 'value' });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) pending.push({ value: v[i], at: { parent: at, key: i } });
    } else if (typeof v === 'object' && v !== null && !ArrayBuffer.isView(v)) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const step = { parent: at, key };
        if (key.includes(NUL) && found.length < limit) found.push({ path: pathOf(step), in: 'key' });
        pending.push({ value: (v as Record<string, unknown>)[key], at: step });
      }
    }
  }
  return found;
}
