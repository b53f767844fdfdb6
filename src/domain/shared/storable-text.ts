/**
 * Text the service keeps is text PostgreSQL can store: never a NUL character (U+0000), which
 * `text` and `jsonb` refuse, and never a lone UTF-16 surrogate (`\ud800` without its pair), which
 * `jsonb` refuses and `text` would keep altered as U+FFFD. A value carrying one is refused where it
 * enters rather than failing in the database as a 500 or being stored changed.
 */
export interface UnstorableText {
  /** From the value's root: object keys and array indexes. */
  readonly path: readonly (string | number)[];
  /** `key`: the last path element is itself the key holding it. */
  readonly in: 'value' | 'key';
  readonly holds: 'nul' | 'lone surrogate';
}

const NUL = '\u0000';
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const unstorable = (text: string): UnstorableText['holds'] | null =>
  text.includes(NUL) ? 'nul' : LONE_SURROGATE.test(text) ? 'lone surrogate' : null;

/** A path as a chain to its parent: building it costs nothing until something is found. */
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
 * Where `value` (a string, or objects and arrays of any depth) holds text PostgreSQL cannot store,
 * in a string or in a key: at most `limit` places. Byte buffers are opaque and skipped. Iterative
 * and linear in the size of the value, so a deeply nested body can neither overflow the stack nor
 * cost more than parsing it did.
 */
export function findUnstorableText(value: unknown, limit = 10): UnstorableText[] {
  const found: UnstorableText[] = [];
  const pending: { value: unknown; at: Step | null }[] = [{ value, at: null }];
  while (pending.length > 0 && found.length < limit) {
    const { value: v, at } = pending.pop()!;
    if (typeof v === 'string') {
      const holds = unstorable(v);
      if (holds) found.push({ path: pathOf(at), in: 'value', holds });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) pending.push({ value: v[i], at: { parent: at, key: i } });
    } else if (typeof v === 'object' && v !== null && !ArrayBuffer.isView(v)) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const step = { parent: at, key };
        const holds = unstorable(key);
        if (holds && found.length < limit) found.push({ path: pathOf(step), in: 'key', holds });
        pending.push({ value: (v as Record<string, unknown>)[key], at: step });
      }
    }
  }
  return found;
}
