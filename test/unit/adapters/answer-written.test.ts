import { EventEmitter } from 'node:events';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { answerWritten } from '../../../src/adapters/inbound/http/answer-written.js';
import { sendEventStream } from '../../../src/adapters/inbound/http/server-sent-events.js';

/*
 * Decision 0375: what waits on the answer (the settlement's write) runs right after the answer's
 * last socket write, in the same synchronous turn: the bytes are with the kernel, the response has
 * ended, and its `finish` (the next tick) has not come yet. Over a real socket, with an async onSend
 * hook as the service has.
 */
const seen: { route: string; ended: boolean; finished: boolean; socketBuffered: number | undefined; bytesOut: number | undefined }[] = [];
const app = Fastify();
app.addHook('onSend', async (_req, _reply, payload) => payload);
const watch = (route: string, reply: Parameters<typeof answerWritten>[0]) => {
  let finishEmitted = false; // emitted on a later tick than the answer's write
  reply.raw.once('finish', () => (finishEmitted = true));
  answerWritten(reply).then(() =>
    seen.push({ route, ended: reply.raw.writableEnded, finished: finishEmitted, socketBuffered: reply.raw.socket?.writableLength, bytesOut: reply.raw.socket?.bytesWritten }),
  );
};
app.post('/json', async (_req, reply) => {
  watch('json', reply);
  return { message: 'x'.repeat(500) };
});
app.post('/stream', async (_req, reply) => {
  watch('stream', reply);
  return sendEventStream(reply, (async function* () {
    yield 'event: start\ndata: {}\n\n';
    yield 'event: done\ndata: {}\n\n';
  })());
});
await app.listen({ port: 0, host: '127.0.0.1' });
afterAll(() => app.close());
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

describe('answerWritten', () => {
  for (const route of ['json', 'stream']) {
    it(`runs what waited once the ${route} answer is with the kernel, before the response's finish`, async () => {
      const res = await fetch(`${base}/${route}`, { method: 'POST' });
      const text = await res.text();
      const s = seen.find((x) => x.route === route)!;
      expect(s).toMatchObject({ ended: true, finished: false, socketBuffered: 0 });
      // every byte of the answer had been written: the body and the headers before it
      expect(s.bytesOut).toBeGreaterThan(text.length);
    });
  }

  it('what waits on an answer already written runs at once', () => {
    const raw = new EventEmitter();
    const after = answerWritten({ raw } as never);
    raw.emit('close');
    let ran = false;
    after.then(() => (ran = true));
    expect(ran).toBe(true);
  });
});
