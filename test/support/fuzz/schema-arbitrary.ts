import fc from 'fast-check';
import { z } from 'zod';

type JsonSchema = Record<string, unknown> & { type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[]; items?: JsonSchema };

/** A route's zod schema as JSON Schema (its input side), or undefined when it has none or it cannot be represented. */
export function jsonSchemaOf(schema: unknown): JsonSchema | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  try {
    if (schema instanceof z.ZodType) return z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
  } catch {
    return undefined;
  }
  return schema as JsonSchema;
}

const anyJson = fc.jsonValue({ maxDepth: 2 });

/**
 * Values the schema accepts (or nearly: refinements are not in JSON Schema), kept small so a run stays
 * quick: strings at most 40 characters past their minimum, arrays at most 3 items.
 */
export function arbitraryOf(root: JsonSchema | undefined): fc.Arbitrary<unknown> {
  if (!root) return anyJson;
  const defs = ((root.$defs ?? root.definitions) as Record<string, JsonSchema>) ?? {};
  const go = (s: JsonSchema | undefined, depth: number): fc.Arbitrary<unknown> => {
    if (!s || typeof s !== 'object' || depth > 6) return anyJson;
    if (typeof s.$ref === 'string') return go(defs[s.$ref.split('/').pop()!], depth + 1);
    if ('const' in s) return fc.constant(s.const);
    if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
    const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
    if (alternatives?.length) return fc.oneof(...alternatives.map((a) => go(a, depth + 1)));
    if (Array.isArray(s.allOf) && s.allOf.length) return go(s.allOf[0] as JsonSchema, depth + 1);
    if (Array.isArray(s.type)) return fc.oneof(...s.type.map((t) => go({ ...s, type: t }, depth + 1)));
    const min = (k: string, d: number) => (typeof s[k] === 'number' ? (s[k] as number) : d);
    switch (s.type) {
      case 'string': {
        if (s.format === 'email') return fc.emailAddress();
        if (s.format === 'uuid') return fc.uuid();
        if (s.format === 'uri' || s.format === 'url') return fc.webUrl();
        if (typeof s.pattern === 'string') {
          try {
            return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= min('maxLength', Infinity) && v.length >= min('minLength', 0));
          } catch {
            /* a pattern fast-check cannot read: plain strings below */
          }
        }
        const minLength = min('minLength', 0);
        return fc.string({ minLength, maxLength: Math.min(min('maxLength', minLength + 40), minLength + 40), unit: 'grapheme' });
      }
      case 'integer': {
        const lo = Math.max(min('minimum', -1e6), Number.MIN_SAFE_INTEGER);
        return fc.integer({ min: lo, max: Math.max(lo, Math.min(min('maximum', 1e6), Number.MAX_SAFE_INTEGER)) });
      }
      case 'number':
        return fc.double({ noNaN: true, noDefaultInfinity: true, min: min('minimum', -1e6), max: min('maximum', 1e6) });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return fc.array(go(s.items, depth + 1), { minLength: min('minItems', 0), maxLength: Math.max(min('minItems', 0), Math.min(min('maxItems', 3), 3)) });
      case 'object': {
        const props = s.properties ?? {};
        const keys = Object.keys(props);
        if (!keys.length) return fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 3 });
        const record = Object.fromEntries(keys.map((k) => [k, go(props[k], depth + 1)]));
        return fc.record(record, { requiredKeys: (s.required ?? []).filter((k) => keys.includes(k)) });
      }
      default:
        return anyJson;
    }
  };
  return go(root, 0);
}

/** The top-level property names a schema names (a query's or a body's fields). */
export const fieldsOf = (s: JsonSchema | undefined): string[] => Object.keys(s?.properties ?? {});

/** Text meant to hurt: huge, odd unicode, lone surrogates, numbers and keywords as text. */
export const hostileText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'x'.repeat(100_000),
    '\uD800',
    '\uDFFF\uD800',
    '\u202E\u0301\uFEFF',
    '🧨'.repeat(500),
    'NaN',
    'Infinity',
    '-0',
    '1e309',
    '9007199254740993',
    '0x10',
    'true',
    'null',
    'undefined',
    '__proto__',
    'constructor',
    '../../../etc/passwd',
    "'; drop table users; --",
    '%00',
    '%',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
  ),
  fc.string({ maxLength: 30, unit: 'binary' }).map((s) => s.replace(/\u0000/g, '')),
  fc.string({ maxLength: 30, unit: 'grapheme' }),
);

/** A JSON value of any shape meant to hurt: wrong types, huge numbers, deep nesting, prototype keys. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, [], {}, [[[]]]),
  fc.constant(null).map(() => deep(2000)),
  fc.constant(null).map(() => JSON.parse('{"__proto__":{"isAdmin":true,"role":"admin"},"constructor":{"prototype":{"polluted":true}}}')),
  fc.array(hostileText, { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
);

function deep(n: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/** An object shaped by the schema with some fields replaced by hostile values, or hostile keys added. */
export function twisted(root: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const fields = fieldsOf(root);
  const valid = arbitraryOf(root);
  return fc
    .record({ valid, field: fc.constantFrom(...(fields.length ? fields : ['x'])), value: hostileValue, proto: fc.boolean() })
    .map(({ valid, field, value, proto }) => {
      const base = valid && typeof valid === 'object' && !Array.isArray(valid) ? { ...(valid as object) } : {};
      const out: Record<string, unknown> = { ...base, [field]: value };
      if (proto) Object.defineProperty(out, '__proto__', { value: { isAdmin: true }, enumerable: true, configurable: true, writable: true });
      return out;
    });
}
