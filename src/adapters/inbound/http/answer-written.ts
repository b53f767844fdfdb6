import type { FastifyReply } from 'fastify';
import { AfterAnswer } from '../../../application/ai/after-answer.js';

/**
 * The moment this reply's answer has been written to the socket (decision 0375). Node's response
 * emits `prefinish` inside `end()`, synchronously, once the last bytes have been handed to the
 * socket (a small answer is written by the kernel then and there), so what waits on it runs in the
 * same synchronous turn as the answer's write. `close` covers an answer that is never written (the
 * client left first): what waited then runs all the same.
 */
export function answerWritten(reply: FastifyReply): AfterAnswer {
  const after = new AfterAnswer();
  reply.raw.once('prefinish', after.written).once('close', after.written);
  return after;
}
