import { describe, expect, it } from 'vitest';
import { readSse } from '../../../src/shared/sse-reader.js';

function body(pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const p of pieces) controller.enqueue(encoder.encode(p));
      controller.close();
    },
  });
}

async function parse(pieces: string[]) {
  const out = [];
  let chunks = 0;
  for await (const e of readSse(body(pieces), () => (chunks += 1))) out.push(e);
  return { events: out, chunks };
}

describe('readSse', () => {
  it('parses events split anywhere across network chunks, LF and CRLF alike', async () => {
    const text = 'event: a\ndata: {"x":1}\n\ndata: two\r\n\r\n';
    const pieces = text.split('').reduce<string[]>((acc, ch, i) => (i % 3 === 0 ? [...acc, ch] : [...acc.slice(0, -1), acc[acc.length - 1] + ch]), []);
    const { events, chunks } = await parse(pieces);
    expect(events).toEqual([{ event: 'a', data: '{"x":1}' }, { event: undefined, data: 'two' }]);
    expect(chunks).toBe(pieces.length);
  });

  it('joins multi-line data, skips comments and unknown fields, keeps a missing-space value', async () => {
    const { events } = await parse([': keep-alive\nid: 7\ndata:first\ndata: second\n\n']);
    expect(events).toEqual([{ event: undefined, data: 'first\nsecond' }]);
  });

  it('dispatches a last event that lacks the final blank line', async () => {
    const { events } = await parse(['data: [DONE]']);
    expect(events).toEqual([{ event: undefined, data: '[DONE]' }]);
  });

  it('decodes multi-byte characters split between chunks', async () => {
    const bytes = new TextEncoder().encode('data: héllo ✓\n\n');
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.slice(0, 8));
        c.enqueue(bytes.slice(8));
        c.close();
      },
    });
    const out = [];
    for await (const e of readSse(stream, () => undefined)) out.push(e.data);
    expect(out).toEqual(['héllo ✓']);
  });
});
