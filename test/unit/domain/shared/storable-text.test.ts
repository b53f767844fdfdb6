import { describe, expect, it } from 'vitest';
import { findNul } from '../../../../src/domain/shared/storable-text.js';

describe('findNul', () => {
  it('finds a NUL in a string, a nested value, an array item and a key, with their paths', () => {
    expect(findNul('a\u0000')).toEqual([{ path: [], in: 'value' }]);
    const found = findNul({ a: { b: ['ok', 'x\u0000'] }, ['k\u0000']: { c: 'ok' } });
    expect(found).toHaveLength(2);
    expect(found).toEqual(expect.arrayContaining([{ path: ['a', 'b', 1], in: 'value' }, { path: ['k\u0000'], in: 'key' }]));
  });

  it('finds nothing in clean values, numbers, null, or byte buffers (opaque)', () => {
    expect(findNul({ a: 1, b: null, c: [true, 'fine'], d: Buffer.from([0, 0, 0]) })).toEqual([]);
    expect(findNul(undefined)).toEqual([]);
  });

  it('stops at the limit, and a value nested 100,000 deep is walked quickly without overflowing the stack', () => {
    expect(findNul(Array.from({ length: 50 }, () => '\u0000'), 3)).toHaveLength(3);
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const started = performance.now();
    expect(findNul(deep)).toEqual([{ path: [...Array.from({ length: 100_000 }, () => 0)], in: 'value' }]);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
