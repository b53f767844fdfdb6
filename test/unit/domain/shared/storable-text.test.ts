import { describe, expect, it } from 'vitest';
import { findUnstorableText } from '../../../../src/domain/shared/storable-text.js';

describe('findUnstorableText', () => {
  it('finds a NUL in a string, a nested value, an array item and a key, with their paths', () => {
    expect(findUnstorableText('a\u0000')).toEqual([{ path: [], in: 'value', holds: 'nul' }]);
    const found = findUnstorableText({ a: { b: ['ok', 'x\u0000'] }, ['k\u0000']: { c: 'ok' } });
    expect(found).toHaveLength(2);
    expect(found).toEqual(expect.arrayContaining([{ path: ['a', 'b', 1], in: 'value', holds: 'nul' }, { path: ['k\u0000'], in: 'key', holds: 'nul' }]));
  });

  it('finds nothing in clean values, numbers, null, or byte buffers (opaque)', () => {
    expect(findUnstorableText({ a: 1, b: null, c: [true, 'fine'], d: Buffer.from([0, 0, 0]) })).toEqual([]);
    expect(findUnstorableText(undefined)).toEqual([]);
  });

  it('stops at the limit, and a value nested 100,000 deep is walked quickly without overflowing the stack', () => {
    expect(findUnstorableText(Array.from({ length: 50 }, () => '\u0000'), 3)).toHaveLength(3);
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    // no wall-clock bound (a loaded machine breaks one): a walk that copied the path at each level
    // would make 5 billion copies here and run into the test's timeout
    expect(findUnstorableText(deep)).toEqual([{ path: [...Array.from({ length: 100_000 }, () => 0)], in: 'value', holds: 'nul' }]);
  });

  it('finds a lone UTF-16 surrogate (high or low) in a value or a key; a surrogate pair is fine', () => {
    expect(findUnstorableText({ ok: '\ud83d\ude00', a: ['x\ud800'], ['\udc00k']: 1, b: 'y\udbff' })).toEqual(
      expect.arrayContaining([
        { path: ['a', 0], in: 'value', holds: 'lone surrogate' },
        { path: ['\udc00k'], in: 'key', holds: 'lone surrogate' },
        { path: ['b'], in: 'value', holds: 'lone surrogate' },
      ]),
    );
    expect(findUnstorableText({ pair: '\ud83d\ude00', reversed: '\ude00\ud83d' })).toEqual([{ path: ['reversed'], in: 'value', holds: 'lone surrogate' }]);
  });
});
