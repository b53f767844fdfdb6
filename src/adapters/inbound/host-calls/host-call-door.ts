import type { HostCall, HostCallKind } from '../../../application/ports/host-calls.port.js';
import { GatewayTokenInvalidError } from '../../../application/agents/runtime.errors.js';
import type { ErrorFamily } from '../http/error-map.js';
import { answerChat, answerTool, type HostCallDeps, type HostCallReply } from './host-call-answers.js';
import { readHostCallBody } from './host-call-body.js';

export type { HostCallDeps, HostCallReply } from './host-call-answers.js';

/** The error family each route's failures are answered in (error-map.ts): the chat route's provider failures are the `agent` family's. */
export const HOST_CALL_ERROR_FAMILY: Record<HostCallKind, ErrorFamily | undefined> = { chat: 'agent', tools: undefined };

/**
 * The door for the agent host's calls to the service: the one request check and the work behind
 * `POST /api/runtime/chat` and `/api/runtime/tools`, whichever transport brought the call (the
 * HTTP route, agent-callback.routes.ts; or a relay over the host's IPC channel or attach stream,
 * in-process-host-calls.ts). The check, in order: a gateway token at all (401 AUTH_REQUIRED before
 * the body is read), the body (host-call-body.ts: size, JSON, depth, storable text), its schema
 * (the route's zod schema), then the token's grant for the agent (AuthorizeRuntimeChat or
 * RunAgentTool). Every refusal is thrown, for the transport's one error mapping (error-handler.ts).
 */
export class HostCallDoor {
  constructor(private readonly deps: HostCallDeps) {}

  async answer<K extends HostCallKind>(req: HostCall<K>, signal: AbortSignal): Promise<HostCallReply<K>> {
    if (req.token === undefined) throw new GatewayTokenInvalidError(true);
    const body = readHostCallBody(req.body);
    const reply = req.kind === 'chat' ? answerChat(this.deps, req.token, body, req.stream, signal) : answerTool(this.deps, req.token, body, signal);
    return reply as Promise<HostCallReply<K>>;
  }
}
