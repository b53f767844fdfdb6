import { errorCodes, type FastifyError } from 'fastify';
import secureJson from 'secure-json-parse';
import type { DependencyContainer } from 'tsyringe';
import type { Logger } from '../../../application/ports/logger.port.js';
import type { RuntimeCallAnswer, RuntimeServiceCall, RuntimeServiceCalls } from '../../../application/ports/runtime-service-calls.port.js';
import type { DomainError } from '../../../domain/shared/domain-error.js';
import { BODY_LIMIT_BYTES } from '../http/body-limit.js';
import type { RouteRecorder, RouteTimings } from '../http/plugins/route-timings.js';
import type { ErrorFamily } from '../http/error-map.js';
import { JSON_MAX_DEPTH, nestsDeeperThan, tooDeepError } from '../http/plugins/bounded-json-parser.js';
import { toResponse } from '../http/plugins/error-handler.js';
import { unstorableTextError } from '../http/plugins/storable-text-guard.js';
import { bearerToken } from '../http/request-headers.js';
import { GatewayTokenInvalidError } from '../../../application/agents/runtime.errors.js';
import { acceptsEventStream, answerRuntimeChat, answerRuntimeTool } from './runtime-call-handlers.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const EVENT_STREAM_TYPE = 'text/event-stream; charset=utf-8';

/**
 * A process runtime's service calls answered in this process (RuntimeServiceCalls), with what
 * `POST /api/runtime/chat` and `/api/runtime/tools` answer over HTTP, step by step as the HTTP edge
 * takes them: the body limit (413), JSON that parses and nests at most JSON_MAX_DEPTH deep (400),
 * storable text (400), then the route's own work (runtime-call-handlers.ts: a missing token 401
 * before the body is looked at, the body's schema, the grant, the AI call) and the one error
 * mapping (error-handler.ts `toResponse`, the chat route's `agent` family). What is saved: the
 * program's HTTP request, Fastify's request handling and the loopback socket, per model call.
 *
 * Streamed chat frames are handed over as they come: the runtime's relay carries each as one
 * message (no socket to cork here).
 */
export class InProcessRuntimeCalls implements RuntimeServiceCalls {
  /** The routes' own timings (the metrics endpoints, Prometheus), as if the call had come over HTTP. */
  private readonly recorders: Record<RuntimeServiceCall['kind'], RouteRecorder>;

  constructor(
    private readonly container: DependencyContainer,
    private readonly log: Logger,
    timings: Pick<RouteTimings, 'recorder'>,
  ) {
    this.recorders = { chat: timings.recorder('POST /api/runtime/chat'), tools: timings.recorder('POST /api/runtime/tools') };
  }

  async answer(call: RuntimeServiceCall, to: RuntimeCallAnswer, signal: AbortSignal): Promise<void> {
    const started = performance.now();
    const status = await this.respond(call, to, signal);
    const ms = performance.now() - started;
    this.recorders[call.kind](status, ms);
    // as the HTTP edge logs its requests (request-log-controller.ts): at debug level
    this.log.debug({ call: call.kind, status, responseTime: ms }, 'in-process runtime call completed');
  }

  /** Answers the call; resolves with the status it was answered with. */
  private async respond(call: RuntimeServiceCall, to: RuntimeCallAnswer, signal: AbortSignal): Promise<number> {
    const family: ErrorFamily | undefined = call.kind === 'chat' ? 'agent' : undefined;
    try {
      const body = parseBody(call.body);
      const token = bearerToken(call.authorization);
      // no credential at all is refused before the body's schema is looked at, as the routes do
      if (token === undefined) throw new GatewayTokenInvalidError(true);
      if (call.kind === 'tools') return json(to, 200, await answerRuntimeTool(this.container, token, body, signal));
      const answer = await answerRuntimeChat(this.container, token, body, acceptsEventStream(call.accept), signal);
      if (answer.kind === 'json') return json(to, 200, answer.body);
      to.head(200, EVENT_STREAM_TYPE);
      for await (const frame of answer.frames) {
        // the program dropped the call: nobody reads the rest (the use case sees the same signal)
        if (signal.aborted) break;
        to.chunk(frame);
      }
      to.end();
      return 200;
    } catch (err) {
      const { status, body } = toResponse(err as FastifyError | DomainError, family);
      if (status >= 500) this.log.error({ err, call: call.kind }, 'in-process runtime call failed');
      return json(to, status, body);
    }
  }
}

function json(to: RuntimeCallAnswer, status: number, body: unknown): number {
  to.head(status, JSON_TYPE);
  to.chunk(JSON.stringify(body));
  to.end();
  return status;
}

/** The body as Fastify's JSON parser behind the service's edge checks reads it; their refusals thrown as theirs. */
function parseBody(text: string): unknown {
  if (Buffer.byteLength(text) > BODY_LIMIT_BYTES) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
  if (text.length === 0) throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY();
  if (nestsDeeperThan(text, JSON_MAX_DEPTH)) throw tooDeepError();
  let body: unknown;
  try {
    // as Fastify's own JSON parser reads it (bounded-json-parser.ts keeps it): a `__proto__` or
    // `constructor.prototype` key is refused, not parsed
    body = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }) as unknown;
  } catch {
    throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  }
  const unstorable = unstorableTextError({ body });
  if (unstorable) throw unstorable;
  return body;
}
