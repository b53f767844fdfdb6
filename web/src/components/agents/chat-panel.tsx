import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, NetworkError } from '../../api/client.js';
import { explain } from '../../api/errors.js';
import { ErrorMessage } from '../error-message.js';
import { Field } from '../field.js';
import type { AgentMessage } from './types.js';

/** A server frame (CONTRACT.md section 7 "websocket frames"). */
type Frame =
  | { type: 'message'; message: AgentMessage }
  | { type: 'delta'; content: string }
  | { type: 'status'; status: string }
  | { type: 'error'; code?: string; error?: string };

/** How long the panel waits before opening the socket again after a drop: 1 s, doubling, at most 15 s. */
const backoff = (attempt: number) => Math.min(15_000, 1000 * 2 ** attempt);

/** An error frame as the error the rest of the console explains (AGENT_NOT_RUNNING, PROVIDER_ERROR, ...). */
function frameError(f: { code?: string; error?: string }): ApiError {
  const code = f.code ?? 'INTERNAL';
  const status = code === 'VALIDATION_ERROR' || code === 'INVALID_JSON' ? 400 : code === 'NOT_FOUND' ? 404 : 409;
  return new ApiError(status, code, { error: f.error ?? 'The agent could not take the message', code });
}

function byTime(a: AgentMessage, b: AgentMessage) {
  return a.createdAt === b.createdAt ? 0 : a.createdAt < b.createdAt ? -1 : 1;
}

/** Adds messages not shown yet (by id), keeping the conversation in time order. */
function merge(shown: AgentMessage[], more: AgentMessage[]): AgentMessage[] {
  const ids = new Set(shown.map((m) => m.id));
  const fresh = more.filter((m) => !ids.has(m.id));
  return fresh.length === 0 ? shown : [...shown, ...fresh].sort(byTime);
}

/**
 * Heading `Chat`: the history first (GET /api/agents/:id/messages), then the agent's websocket.
 * Every stored message arrives as a `message` frame (the user's own too), the reply grows from
 * `delta` frames in a live region while the agent answers, `status` frames tell the page the
 * agent moved, and `error` frames are said as sentences. The socket opens again when it drops.
 */
export function ChatPanel({ agentId, websocketUrl, onStatus }: { agentId: string; websocketUrl: string | undefined; onStatus: (status: string) => void }) {
  const [messages, setMessages] = useState<AgentMessage[]>([]);
  const [partial, setPartial] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [connected, setConnected] = useState(false);
  const socket = useRef<WebSocket | null>(null);
  const statusRef = useRef(onStatus);
  statusRef.current = onStatus;
  const logRef = useRef<HTMLUListElement>(null);
  // the text sent and not yet stored: the field keeps it until the agent took it, so a refusal loses nothing
  const pending = useRef<string | null>(null);

  const loadHistory = useCallback(async () => {
    try {
      const r = await api.get<{ messages: AgentMessage[] }>(`/api/agents/${encodeURIComponent(agentId)}/messages?limit=50`);
      setMessages((shown) => merge(shown, r.messages));
    } catch (err) {
      setError(err);
    }
  }, [agentId]);

  useEffect(() => {
    setMessages([]);
    void loadHistory();
  }, [loadHistory]);

  useEffect(() => {
    if (!websocketUrl) return;
    let closed = false;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      const ws = new WebSocket(websocketUrl);
      socket.current = ws;
      ws.onopen = () => {
        setConnected(true);
        // messages stored while the socket was down
        if (attempt > 0) void loadHistory();
        attempt = 0;
      };
      ws.onmessage = (ev) => {
        let f: Frame;
        try {
          f = JSON.parse(String(ev.data)) as Frame;
        } catch {
          return;
        }
        if (f.type === 'message') {
          setMessages((shown) => merge(shown, [f.message]));
          if (f.message.role !== 'user') setPartial('');
          else {
            // the agent took a message: an earlier refusal no longer holds, and the sent text leaves the field
            setError(undefined);
            if (pending.current !== null && f.message.content === pending.current) {
              pending.current = null;
              setText((t) => (t.trim() === f.message.content ? '' : t));
            }
          }
        } else if (f.type === 'delta') {
          setPartial((p) => p + f.content);
        } else if (f.type === 'status') {
          statusRef.current(f.status);
        } else if (f.type === 'error') {
          // refused (the agent stopped, the plan's limit): the text stays in the field to send again
          pending.current = null;
          setPartial('');
          setError(frameError(f));
        }
      };
      ws.onclose = () => {
        if (socket.current === ws) socket.current = null;
        setConnected(false);
        if (closed) return;
        timer = setTimeout(open, backoff(attempt++));
      };
    };
    open();
    return () => {
      closed = true;
      if (timer) clearTimeout(timer);
      socket.current?.close();
      socket.current = null;
    };
  }, [websocketUrl, loadHistory]);

  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages, partial]);

  const send = (e: Event) => {
    e.preventDefault();
    const content = text.trim();
    if (!content) return;
    const ws = socket.current;
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      // the socket is down (it opens again by itself): the message was not sent
      setError(new NetworkError());
      return;
    }
    setError(undefined);
    pending.current = content;
    ws.send(JSON.stringify({ type: 'message', content }));
  };

  return (
    <section class="panel agent-chat" aria-labelledby="agent-chat-heading">
      <h2 id="agent-chat-heading">Chat</h2>
      <p class="muted" role="status">
        {connected ? 'Connected.' : 'Connecting…'}
      </p>
      <ul class="chat-log" aria-label="Conversation" ref={logRef}>
        {messages.map((m) => (
          <li key={m.id} class={`chat-message chat-${m.role}`}>
            <span class="chat-who">{m.role === 'user' ? 'You' : 'Agent'}</span>
            <span class="chat-text">{m.content}</span>
            {m.model ? <span class="chat-model">Answered by {m.model}</span> : null}
            {m.failure ? <span class="chat-failed">Not answered: {explain(new ApiError(503, m.failure.code, { error: '', code: m.failure.code })).text}</span> : null}
          </li>
        ))}
        {partial ? (
          <li class="chat-message chat-assistant chat-partial">
            <span class="chat-who">Agent (typing)</span>
            <span class="chat-text">{partial}</span>
          </li>
        ) : null}
      </ul>
      <p class="visually-hidden" aria-live="polite">
        {partial}
      </p>
      {messages.length === 0 && !partial ? <p class="muted">No messages yet.</p> : null}
      <form class="chat-form" onSubmit={send}>
        <Field label="Message" value={text} onValue={setText} autocomplete="off" maxLength={32000} />
        <div class="actions">
          <button type="submit">Send</button>
        </div>
      </form>
      <ErrorMessage error={error} />
    </section>
  );
}
