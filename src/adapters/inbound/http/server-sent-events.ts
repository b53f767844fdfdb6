import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Server-sent events as the AI, runtime and gateway routes answer them (CONTRACT.md: `Accept:
 * text/event-stream`): named events whose `data` is one line of JSON. Nothing here is allocated per
 * request beyond the frames themselves: these routes are hot paths.
 */

/** Whether the caller asked for a stream (`Accept: text/event-stream`). */
export const wantsEventStream = (req: FastifyRequest): boolean => {
  const accept = req.headers.accept;
  return typeof accept === 'string' && accept.toLowerCase().includes('text/event-stream');
};

/** One event: `event: <name>` and its JSON `data`, ended by the blank line. */
export const sseFrame = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * Sends the frames as the answer: the stream's headers (no caching, no proxy buffering), then each
 * frame as it comes. A stream is not serialized: the route's response schema is the JSON answer's.
 *
 * Frames produced in the same turn of the event loop (the deltas of one chunk from the provider,
 * the start frame with the first ones, the last delta with `done` and the end) leave in one socket
 * write: the response is corked at a turn's first frame and uncorked when the turn's I/O is done
 * (setImmediate). Each write costs a syscall and, on loopback, the receiver's TCP work; no frame
 * waits for a later chunk.
 */
export function sendEventStream(reply: FastifyReply, frames: AsyncIterable<string>): FastifyReply {
  reply.header('content-type', 'text/event-stream; charset=utf-8').header('cache-control', 'no-cache').header('x-accel-buffering', 'no');
  return reply.send(Readable.from(corkedPerTurn(reply.raw, frames)) as never);
}

async function* corkedPerTurn(res: FastifyReply['raw'], frames: AsyncIterable<string>): AsyncGenerator<string> {
  let corked = false;
  const uncork = () => {
    corked = false;
    // end() uncorks fully, and a finished response has no socket left to uncork
    if (!res.writableEnded) res.uncork();
  };
  for await (const frame of frames) {
    if (!corked && !res.writableEnded) {
      corked = true;
      res.cork();
      setImmediate(uncork);
    }
    yield frame;
  }
}
