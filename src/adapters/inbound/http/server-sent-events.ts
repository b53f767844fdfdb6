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
 */
export function sendEventStream(reply: FastifyReply, frames: AsyncIterable<string>): FastifyReply {
  reply.header('content-type', 'text/event-stream; charset=utf-8').header('cache-control', 'no-cache').header('x-accel-buffering', 'no');
  return reply.send(Readable.from(frames) as never);
}
