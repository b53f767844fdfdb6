import { LogController } from 'fastify';

/**
 * Fastify's per-request lines ("incoming request", "request completed") at debug instead of info:
 * a person clicking through the console for three minutes made some 2,300 of them, burying what
 * the service had to say. Errors keep Fastify's levels (a failed request still logs at error).
 */
export class RequestLogAtDebug extends LogController {
  override incomingRequest(request: Parameters<LogController['incomingRequest']>[0]): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: Parameters<LogController['requestCompleted']>[1], reply: Parameters<LogController['requestCompleted']>[2]): void {
    if (error || this.isLogDisabled(request)) return super.requestCompleted(error, request, reply);
    reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
