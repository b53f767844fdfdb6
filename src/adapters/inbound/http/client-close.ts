import type { FastifyReply } from 'fastify';

/**
 * Aborted when the client goes away before the answer is complete: cancels the provider call and
 * releases (or settles) the reservation, whether or not the answer was being read yet. A client
 * that left before this runs (during authentication) gets an already aborted signal.
 */
export function abortOnClientClose(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort();
  };
  if (reply.raw.destroyed) onClose();
  else reply.raw.once('close', onClose);
  return controller.signal;
}
