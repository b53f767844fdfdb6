import type { FastifyError } from 'fastify';
import type { Logger } from '../../../application/ports/logger.port.js';
import type { HostCall, HostCallAnswer, HostCallKind, HostCalls } from '../../../application/ports/host-calls.port.js';
import type { DomainError } from '../../../domain/shared/domain-error.js';
import type { RouteRecorder, RouteTimings } from '../http/plugins/route-timings.js';
import { toResponse } from '../http/plugins/error-handler.js';
import { HOST_CALL_ERROR_FAMILY, type HostCallDoor } from './host-call-door.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const EVENT_STREAM_TYPE = 'text/event-stream; charset=utf-8';

/**
 * The door's second transport: a host's calls that a relay read from its IPC channel or attach
 * stream, answered in this process by the same door as the HTTP route (HostCallDoor) and in the
 * route's form (status, content type, JSON or event-stream text), errors through the error
 * handler's own `toResponse`. What is saved against HTTP: the host's HTTP request, Fastify's
 * request handling and the loopback socket, per model call (decision 0372).
 *
 * Streamed chat frames are handed over as they come: the relay carries each as one message (no
 * socket to cork here).
 */
export class InProcessHostCalls implements HostCalls {
  /** The routes' own timings (the metrics endpoints, Prometheus), as if the call had come over HTTP. */
  private readonly recorders: Record<HostCallKind, RouteRecorder>;

  constructor(
    private readonly door: HostCallDoor,
    private readonly log: Logger,
    timings: Pick<RouteTimings, 'recorder'>,
  ) {
    this.recorders = { chat: timings.recorder('POST /api/runtime/chat'), tools: timings.recorder('POST /api/runtime/tools') };
  }

  async answer(call: HostCall, to: HostCallAnswer, signal: AbortSignal): Promise<void> {
    const started = performance.now();
    const status = await this.respond(call, to, signal);
    const ms = performance.now() - started;
    this.recorders[call.kind](status, ms);
    // as the HTTP edge logs its requests (request-log-controller.ts): at debug level
    this.log.debug({ call: call.kind, status, responseTime: ms }, 'in-process host call completed');
  }

  /** Answers the call; resolves with the status it was answered with. */
  private async respond(call: HostCall, to: HostCallAnswer, signal: AbortSignal): Promise<number> {
    try {
      const reply = await this.door.answer(call, signal);
      if (reply.kind === 'json') return json(to, 200, reply.body);
      to.head(200, EVENT_STREAM_TYPE);
      for await (const frame of reply.frames) {
        // the host dropped the call: nobody reads the rest (the use case sees the same signal)
        if (signal.aborted) break;
        to.chunk(frame);
      }
      to.end();
      return 200;
    } catch (err) {
      const { status, body } = toResponse(err as FastifyError | DomainError, HOST_CALL_ERROR_FAMILY[call.kind]);
      if (status >= 500) this.log.error({ err, call: call.kind }, 'in-process host call failed');
      return json(to, status, body);
    }
  }
}

function json(to: HostCallAnswer, status: number, body: unknown): number {
  to.head(status, JSON_TYPE);
  to.chunk(JSON.stringify(body));
  to.end();
  return status;
}
