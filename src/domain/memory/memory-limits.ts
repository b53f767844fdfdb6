import {
  InvalidMemoryKeyError,
  InvalidMemoryWriteError,
  MemoryKeyCapReachedError,
  MemoryValueTooLargeError,
  TooManyMemoryKeysError,
} from './memory.errors.js';

/** CONTRACT.md 7 "memory value size": bytes of the value's UTF-8 JSON text. */
export const MEMORY_VALUE_MAX_BYTES = 102_400;
/** Spec Limits: bulk memory keys per request. */
export const MEMORY_KEYS_PER_REQUEST = 50;
/** A key is 1 to 256 characters (code points), not only white space. Our decision (docs/decisions/0088-agent-memory-limits.md). */
export const MEMORY_KEY_MAX_CHARS = 256;
/**
 * Keys one agent may keep (our decision, docs/decisions/0088-agent-memory-limits.md): with 100 KB values this bounds one agent's
 * memory near 100 MB, and the runtime's prompt renders only a part of it anyway.
 */
export const MEMORY_KEYS_PER_AGENT = 1_000;

/** One memory write: the entries, in request order. */
export type MemoryEntries = ReadonlyArray<readonly [key: string, value: unknown]>;

/** Bytes of `text` in UTF-8, without encoding it (a lone surrogate counts as U+FFFD: 3 bytes). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The size the limit is about: the value's JSON text in UTF-8. */
export const memoryValueBytes = (value: unknown): number => utf8Bytes(JSON.stringify(value) ?? 'null');

export function checkMemoryKey(key: string): void {
  const chars = Array.from(key).length;
  if (chars === 0 || key.trim() === '') throw new InvalidMemoryKeyError('a key is not empty or only white space');
  if (chars > MEMORY_KEY_MAX_CHARS) throw new InvalidMemoryKeyError(`a key is at most ${MEMORY_KEY_MAX_CHARS} characters`);
}

/** A value is present: `undefined` and `null` read as "missing memory" (spec: memory required). */
export function checkMemoryValue(key: string, value: unknown, path = 'body/memory'): void {
  if (value === undefined || value === null) throw new InvalidMemoryWriteError(`memory of "${key}" is required`, path);
  const bytes = memoryValueBytes(value);
  if (bytes > MEMORY_VALUE_MAX_BYTES) throw new MemoryValueTooLargeError(key, bytes, MEMORY_VALUE_MAX_BYTES);
}

/**
 * The entries of a write, checked whole before anything is stored (all or nothing): a single
 * `{key, memory}` or a bulk `memory` object of at most MEMORY_KEYS_PER_REQUEST keys.
 */
export function memoryWrite(input: { key?: string | undefined; memory: unknown }): MemoryEntries {
  let entries: MemoryEntries;
  if (input.key !== undefined) {
    entries = [[input.key, input.memory]];
  } else {
    const m = input.memory;
    if (typeof m !== 'object' || m === null || Array.isArray(m)) throw new InvalidMemoryWriteError('memory must be an object of key to value when no key is given', 'body/memory');
    entries = Object.entries(m);
    if (entries.length === 0) throw new InvalidMemoryWriteError('memory names no key', 'body/memory');
    if (entries.length > MEMORY_KEYS_PER_REQUEST) throw new TooManyMemoryKeysError(entries.length, MEMORY_KEYS_PER_REQUEST);
  }
  for (const [key, value] of entries) {
    checkMemoryKey(key);
    checkMemoryValue(key, value, input.key !== undefined ? 'body/memory' : `body/memory/${key.slice(0, 64).replace(/~/g, '~0').replace(/\//g, '~1')}`);
  }
  return entries;
}

/** The per-agent cap: `current` keys stored, `adding` of the write's keys not stored yet. */
export function checkMemoryKeyCap(current: number, adding: number): void {
  if (adding > 0 && current + adding > MEMORY_KEYS_PER_AGENT) throw new MemoryKeyCapReachedError(current, adding, MEMORY_KEYS_PER_AGENT);
}
