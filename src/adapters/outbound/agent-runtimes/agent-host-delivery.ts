import { randomUUID } from 'node:crypto';
import { RuntimeReplyError, RuntimeUnavailableError } from '../../../application/agents/runtime.errors.js';
import type { Delivery, RuntimeReply } from '../../../application/ports/agent-runtime.port.js';
import { msg, readMessage, type HostMessage, type RuntimeChatResult, type SupervisorMessage, type WireDelivery } from '../../../agent-host/agent-host-protocol.js';

/** Someone waiting for the answers to one request id. */
export interface PendingAnswer {
  onMessage: (m: HostMessage) => void;
  /** The program ended (or its channel closed) first: called once, then forgotten. */
  onEnd: () => void;
}

/** A running agent-host program as its supervisor talks to it, whatever carries the messages (IPC, a container's stdio). */
export interface HostChannel {
  /** Sends one message; false when the channel is already closed. */
  send(m: SupervisorMessage): boolean;
  /** Sends `m` and routes the answers to `m.id` to `waiting` until `forget(m.id)` or the end; false, nothing registered, when closed. */
  open(m: SupervisorMessage & { id: string }, waiting: PendingAnswer): boolean;
  forget(id: string): void;
}

/** The answers a channel's requests are waiting for, by request id: the half of HostChannel every channel shares. */
export class AwaitedAnswers {
  private readonly pending = new Map<string, PendingAnswer>();

  /** Registers `waiting` for `m.id`, then sends `m`; false, and nothing registered, when `send` could not. */
  open(m: SupervisorMessage & { id: string }, waiting: PendingAnswer, send: (m: SupervisorMessage) => boolean): boolean {
    this.pending.set(m.id, waiting);
    if (send(m)) return true;
    this.pending.delete(m.id);
    return false;
  }

  forget(id: string): void {
    this.pending.delete(id);
  }

  /** A message from the program: to whoever waits for its id (anything else is dropped). */
  route(raw: unknown): void {
    const m = readMessage<HostMessage>(raw);
    const waiting = m && 'id' in m ? this.pending.get(m.id) : undefined;
    if (m && waiting) waiting.onMessage(m);
  }

  /**
   * The reply of delivery `id`, taken by the supervisor from the answer of the program's call that
   * named it (`final`, agent-host-protocol.ts), as if the program had sent it; false when no one
   * waits for `id` (it was cancelled, or is not a delivery of this channel).
   */
  replyWith(id: string, reply: RuntimeChatResult): boolean {
    const waiting = this.pending.get(id);
    if (!waiting) return false;
    waiting.onMessage({ ...msg, type: 'reply', id, reply });
    return true;
  }

  /** The program or its channel ended: everyone waiting hears it once. */
  endAll(): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.onEnd();
  }
}

/**
 * One delivery through a host: `deliver`, then `delta`s (streamed only with `onDelta`) and exactly
 * one `reply` or `failed`. The caller's abort sends `cancel`; the host ending first is
 * RuntimeUnavailableError (the message waits for the runtime to run again).
 */
export function deliverThrough(host: HostChannel, delivery: Delivery, options: { signal?: AbortSignal; onDelta?: (text: string) => void } = {}): Promise<RuntimeReply> {
  const { signal, onDelta } = options;
  const id = randomUUID();
  const startedAt = Date.now();
  return new Promise<RuntimeReply>((resolve, reject) => {
    const settle = (fn: () => void) => {
      host.forget(id);
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = () => {
      host.send({ ...msg, type: 'cancel', id });
      settle(() => reject(signal?.reason ?? new DOMException('This operation was aborted', 'AbortError')));
    };
    const onMessage = (m: HostMessage) => {
      if (m.type === 'delta') onDelta?.(m.content);
      else if (m.type === 'reply') settle(() => resolve({ ...m.reply, durationMs: Date.now() - startedAt }));
      else if (m.type === 'failed') settle(() => reject(new RuntimeReplyError(m.code, m.error)));
    };
    const onEnd = () => settle(() => reject(new RuntimeUnavailableError('The agent runtime stopped while answering')));
    signal?.addEventListener('abort', onAbort, { once: true });
    if (!host.open({ ...msg, type: 'deliver', id, delivery: toWire(delivery), stream: onDelta !== undefined }, { onMessage, onEnd })) {
      settle(() => reject(new RuntimeUnavailableError()));
    }
  });
}

/** One message, one answer (`pong`, `ack`); rejects with RuntimeUnavailableError if the host ends first. */
export function requestThrough(host: HostChannel, m: SupervisorMessage & { id: string }): Promise<HostMessage> {
  return new Promise((resolve, reject) => {
    const gone = () => reject(new RuntimeUnavailableError('The agent runtime stopped'));
    const sent = host.open(m, {
      onMessage: (answer) => {
        host.forget(m.id);
        resolve(answer);
      },
      onEnd: gone,
    });
    if (!sent) gone();
  });
}

/** What crosses to the program: the delivery without anything only the service needs. */
function toWire(delivery: Delivery): WireDelivery {
  const wire: WireDelivery = { agentId: delivery.agentId, model: delivery.model, content: delivery.content, config: delivery.config, memory: delivery.memory, history: delivery.history };
  if (delivery.tools && delivery.tools.length > 0) {
    wire.tools = delivery.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
    wire.maxToolSteps = delivery.maxToolSteps ?? 1;
  }
  return wire;
}
