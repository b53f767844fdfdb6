import { describe, expect, it } from 'vitest';
import {
  checkMemoryKeyCap,
  MEMORY_KEYS_PER_AGENT,
  MEMORY_VALUE_MAX_BYTES,
  memoryValueBytes,
  memoryWrite,
  utf8Bytes,
} from '../../../../src/domain/memory/memory-limits.js';

describe('memory value size', () => {
  it('when a value is measured, then it is the bytes of its UTF-8 JSON text', () => {
    expect(memoryValueBytes('é')).toBe(4); // "é" : quotes + 2 bytes
    expect(memoryValueBytes({ a: 1 })).toBe(7);
    expect(utf8Bytes('😀')).toBe(4);
    expect(utf8Bytes('\ud800')).toBe(3);
    expect(utf8Bytes('€')).toBe(Buffer.byteLength('€'));
  });

  it('when a value is exactly 102,400 bytes, then it is accepted; one byte more, then MEMORY_VALUE_TOO_LARGE', () => {
    const fits = 'x'.repeat(MEMORY_VALUE_MAX_BYTES - 2);
    expect(memoryWrite({ key: 'k', memory: fits })).toEqual([['k', fits]]);
    expect(() => memoryWrite({ key: 'k', memory: `${fits}x` })).toThrow(expect.objectContaining({ code: 'MEMORY_VALUE_TOO_LARGE' }));
    // multi-byte characters count as their bytes, not as one
    expect(() => memoryWrite({ key: 'k', memory: 'é'.repeat(MEMORY_VALUE_MAX_BYTES / 2) })).toThrow(expect.objectContaining({ code: 'MEMORY_VALUE_TOO_LARGE' }));
  });
});

describe('memory writes', () => {
  it('when a bulk write names 50 keys, then it is accepted; 51, then MEMORY_TOO_MANY_KEYS', () => {
    const of = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect(memoryWrite({ memory: of(50) })).toHaveLength(50);
    expect(() => memoryWrite({ memory: of(51) })).toThrow(expect.objectContaining({ code: 'MEMORY_TOO_MANY_KEYS' }));
  });

  it('when a key is empty, blank or longer than 256 characters, then MEMORY_KEY_INVALID', () => {
    for (const key of ['', '   ', 'k'.repeat(257)]) expect(() => memoryWrite({ key, memory: 1 })).toThrow(expect.objectContaining({ code: 'MEMORY_KEY_INVALID' }));
    expect(memoryWrite({ key: '😀'.repeat(256), memory: 1 })).toHaveLength(1);
  });

  it('when a bulk memory is not an object, is empty, or a value is null, then a validation error', () => {
    for (const memory of ['text', [1, 2], null, {}]) expect(() => memoryWrite({ memory })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
    expect(() => memoryWrite({ key: 'k', memory: null })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
    expect(() => memoryWrite({ memory: { a: 1, b: null } })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });

  it('when a single write has a key, then any JSON value is one entry (objects included)', () => {
    expect(memoryWrite({ key: 'k', memory: { nested: [1, 'two'] } })).toEqual([['k', { nested: [1, 'two'] }]]);
    expect(memoryWrite({ key: 'k', memory: false })).toEqual([['k', false]]);
  });
});

describe('keys per agent', () => {
  it('when new keys would pass the per-agent cap, then MEMORY_KEY_LIMIT_REACHED; replacing keys never does', () => {
    expect(() => checkMemoryKeyCap(MEMORY_KEYS_PER_AGENT - 1, 1)).not.toThrow();
    expect(() => checkMemoryKeyCap(MEMORY_KEYS_PER_AGENT, 0)).not.toThrow();
    expect(() => checkMemoryKeyCap(MEMORY_KEYS_PER_AGENT - 1, 2)).toThrow(expect.objectContaining({ code: 'MEMORY_KEY_LIMIT_REACHED' }));
  });
});
