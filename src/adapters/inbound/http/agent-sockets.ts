import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AgentSettings } from '../../../application/ports/agent-settings.port.js';
import type { AuthorizeAgentSocket, SocketCredential } from '../../../application/agents/authorize-agent-socket.use-case.js';
import type { ReadAgentMessage } from '../../../application/agents/read-agent-message.use-case.js';
import type { ReadMessageOutcome } from '../../../application/agents/read-message-outcome.use-case.js';
import type { SendAgentMessage } from '../../../application/agents/send-agent-message.use-case.js';
import { WATCH_RENEW_MS, type MailboxSignals } from '../../../application/ports/agent-mailbox.port.js';
import type { UserId } from '../../../domain/shared/ids.js';
import { DomainError } from '../../../domain/shared/domain-error.js';
import { agentFailureBody, agentMessageBody } from './presenters/agent-presenters.js';
import { HttpEdgeError } from './http-error.js';
import { toResponse } from './plugins/error-handler.js';
import type { RouteEdge } from './routes/route-context.js';
import { AGENT_MESSAGE_MAX_CHARS } from './schemas/chat.schema.js';

const PATH = /^\/api\/agents\/([^/]+)\/ws$/;
/** A client frame is small: a message of at most 32,000 characters in JSON. */
const MAX_FRAME_BYTES = 256 * 1024;

/** Refused before the upgrade, with the status and body the error map gives the error. */
function refuse(socket: Duplex, err: Error): void {
  const { status, body } = toResponse(err as DomainError, undefined);
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

/** What the agent's websocket needs, handed over with the chat routes it rides beside. */
export interface AgentSocketDeps {
  agentSettings: AgentSettings;
  mailboxSignals: MailboxSignals;
  authorizeAgentSocket: AuthorizeAgentSocket;
  readAgentMessage: ReadAgentMessage;
  readMessageOutcome: ReadMessageOutcome;
  sendAgentMessage: SendAgentMessage;
}

/**
 * `GET /api/agents/:id/ws` (CONTRACT.md section 7 `websocketUrl` and "websocket frames"), on the
 * HTTP server's `upgrade` event with the `ws` package (no Fastify plugin). Opened by the agent's
 * owner with the session cookie and an `Origin` equal to APP_URL's (CONTRACT.md section 4), or
 * with `?token=<gateway token>`; refused before the upgrade with 401/403/404 `{error, code}`.
 *
 * Server frames: `{type: "message", message}` for every message of the agent stored by any
 * process (the `stored` announcement of the mailbox's NOTIFY), in the order announced;
 * `{type: "status", status}` when the agent's status moves (any process, NOTIFY on the update);
 * `{type: "error", code, error}` for a bad client frame, a refused message, or a message of the
 * agent whose answer failed (the mailbox announced it finished as failed, e.g. PROVIDER_ERROR:
 * no reply will come, whichever channel sent it). Client frames:
 * `{type: "message", content}` queues a message (channel `websocket`) exactly like POST /api/chat,
 * without waiting: the message and, later, the answer arrive as `message` frames, the answer
 * preceded by its `{type: "delta", content}` pieces while it is made (published by the worker
 * answering, whichever process that is; best effort, the stored reply is whole).
 */
export function registerAgentSockets(app: FastifyInstance, ctx: RouteEdge & AgentSocketDeps): void {
  const { mailboxSignals: signals, authorizeAgentSocket, readAgentMessage, readMessageOutcome, sendAgentMessage } = ctx;
  const appOrigin = new URL(ctx.agentSettings.appUrl).origin;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const open = new Set<WebSocket>();
  app.addHook('onClose', async () => {
    for (const ws of open) ws.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });

  async function credentialOf(req: IncomingMessage, url: URL): Promise<SocketCredential> {
    const token = url.searchParams.get('token');
    if (token) return { kind: 'gateway-token', token };
    if (req.headers.origin !== appOrigin) throw new HttpEdgeError('ORIGIN_NOT_ALLOWED', 'The Origin must be the application URL');
    const session = app.parseCookie(req.headers.cookie ?? '')[ctx.cookies.session];
    const actor = session ? await ctx.authenticator.fromSessionToken(session) : null;
    if (!actor) throw new HttpEdgeError('AUTH_REQUIRED', 'Sign in, or pass ?token=<gateway token>');
    return { kind: 'user', actor };
  }

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    // a client that goes away during the checks must not become an unhandled 'error'
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = PATH.exec(url.pathname);
    if (!match) return refuse(socket, new HttpEdgeError('NOT_FOUND', 'Not found'));
    const agentId = decodeURIComponent(match[1]!);
    let userId: UserId;
    try {
      ({ userId } = await authorizeAgentSocket.execute(await credentialOf(req, url), agentId));
      await signals.start();
    } catch (err) {
      if (!(err instanceof DomainError)) app.log.error({ err }, 'agent websocket upgrade failed');
      return refuse(socket, err instanceof Error ? err : new Error(String(err)));
    }
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, userId, agentId));
  }

  function serve(ws: WebSocket, userId: UserId, agentId: string): void {
    open.add(ws);
    // the worker answering this agent streams its answers only while a live view is announced
    const announce = () => void signals.watching(userId, agentId).catch((err) => app.log.warn({ err, agentId }, 'agent websocket could not announce itself'));
    announce();
    const renew = setInterval(announce, WATCH_RENEW_MS);
    renew.unref();
    const send = (frame: object) => {
      if (ws.readyState === 1) ws.send(JSON.stringify(frame));
    };
    // stored messages are read and sent one after another, in the order announced
    let queue = Promise.resolve();
    // Messages whose answer finished: a piece of their answer announced after that (the worker does
    // not wait for its last pieces to go out before storing the reply) is dropped, never shown after
    // the whole reply. The finish and the stored reply come from one commit, so they arrive together.
    const finished = new Set<string>();
    const unsubscribe = signals.subscribe((s) => {
      if (s.agentId !== agentId || s.userId !== userId) return;
      if (s.kind === 'delta' && finished.has(s.messageId)) return;
      if (s.kind === 'status' || s.kind === 'delta') {
        const frame = s.kind === 'status' ? { type: 'status', status: s.status } : { type: 'delta', content: s.content };
        queue = queue.then(() => send(frame));
        return;
      }
      if (s.kind === 'finished') {
        finished.add(s.messageId);
        if (finished.size > 256) finished.delete(finished.values().next().value!);
        queue = queue
          .then(async () => {
            const outcome = await readMessageOutcome.execute(userId, s.messageId);
            if (outcome?.status === 'failed') send({ type: 'error', ...agentFailureBody(outcome.errorCode ?? 'PROVIDER_ERROR', outcome.error ?? 'The agent could not answer') });
          })
          .catch((err) => app.log.warn({ err, agentId }, 'agent websocket could not read an outcome'));
        return;
      }
      if (s.kind !== 'stored') return;
      queue = queue
        .then(async () => {
          const message = await readAgentMessage.execute(userId, s.messageId);
          if (message) send({ type: 'message', message: agentMessageBody(message) });
        })
        .catch((err) => app.log.warn({ err, agentId }, 'agent websocket could not push a message'));
    });
    ws.on('close', () => {
      clearInterval(renew);
      unsubscribe();
      open.delete(ws);
    });
    ws.on('error', () => ws.terminate());
    ws.on('message', (data: Buffer) => {
      let frame: unknown;
      try {
        frame = JSON.parse(String(data));
      } catch {
        return send({ type: 'error', code: 'INVALID_JSON', error: 'A frame must be JSON' });
      }
      const f = frame as { type?: unknown; content?: unknown };
      if (f?.type !== 'message' || typeof f.content !== 'string' || f.content.length < 1 || f.content.length > AGENT_MESSAGE_MAX_CHARS || f.content.includes('\u0000')) {
        return send({ type: 'error', code: 'VALIDATION_ERROR', error: `Send {type: "message", content} with 1 to ${AGENT_MESSAGE_MAX_CHARS} characters` });
      }
      sendAgentMessage
        .execute({ userId }, { agentId, content: f.content }, { channel: 'websocket', wait: false })
        .catch((err) => {
          if (err instanceof DomainError) send({ type: 'error', code: err.code, error: err.message });
          else {
            app.log.error({ err, agentId }, 'agent websocket message failed');
            send({ type: 'error', code: 'INTERNAL', error: 'Internal server error' });
          }
        });
    });
  }

  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => void upgrade(req, socket, head));
}
