import { describe, expect, it } from 'vitest';
import { HostCallRelay } from '../../../../src/adapters/outbound/agent-runtimes/host-call-relay.js';
import { msg, type HostMessage, type RuntimeChatResult, type SupervisorMessage } from '../../../../src/agent-host/agent-host-protocol.js';
import { AnsweredAsReply, relayedFetch } from '../../../../src/agent-host/agent-host-relayed-fetch.js';
import { requestCompletion, ServiceCallError } from '../../../../src/agent-host/agent-host-service-client.js';
import type { HostCall, HostCallAnswer, HostCalls } from '../../../../src/application/ports/host-calls.port.js';

const turn = () => new Promise((r) => setImmediate(r));

/** The program's relay and the supervisor's, joined as the IPC channel joins them (asynchronously), every message recorded. */
function joined(answer: (call: HostCall, to: HostCallAnswer, signal: AbortSignal) => Promise<void>, channelOpen = () => true) {
  const toProgram: SupervisorMessage[] = [];
  const toSupervisor: HostMessage[] = [];
  /** The supervisor's deliveries waiting for a reply (AwaitedAnswers), and the replies they got. */
  const waitingDeliveries = new Set<string>();
  const replies: { id: string; reply: RuntimeChatResult }[] = [];
  const calls: HostCalls = { answer };
  let program: ReturnType<typeof relayedFetch>;
  const supervisor = new HostCallRelay({
    calls: () => calls,
    gatewayToken: 'gw_instance',
    send: (m) => {
      if (!channelOpen()) return false;
      toProgram.push(m);
      setImmediate(() => program.receive(m as never));
      return true;
    },
    reply: (id, reply) => {
      if (!waitingDeliveries.delete(id)) return false;
      replies.push({ id, reply });
      return true;
    },
    log: () => undefined,
  });
  program = relayedFetch((m) => {
    toSupervisor.push(m);
    setImmediate(() => supervisor.handle(m));
  });
  const client = { serviceUrl: 'http://supervisor', gatewayToken: 'gw_token', idleTimeoutMs: 5_000, relay: program.call };
  return { supervisor, program, client, toProgram, toSupervisor, waitingDeliveries, replies };
}

const request = { agentId: 'a', model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };
const result = { content: 'Hello', model: 'm', usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } };

describe('HostCallRelay with the program\'s relay', () => {
  it('when the answer is whole at once (JSON), then it crosses as one service-answer and the client reads the result; the call carries the instance\'s own token, not the program\'s', async () => {
    let seen: HostCall | undefined;
    const j = joined(async (call, to) => {
      seen = call;
      to.head(200, 'application/json; charset=utf-8');
      to.chunk(JSON.stringify(result));
      to.end();
    });
    expect(await requestCompletion(j.client, request, new AbortController().signal)).toEqual(result);
    expect(seen).toEqual({ kind: 'chat', token: 'gw_instance', stream: false, body: JSON.stringify(request) });
    expect(j.toProgram.map((m) => m.type)).toEqual(['service-answer']);
  });

  it('when the answer streams, then the head, each frame in order and the end cross, and the deltas are passed on', async () => {
    const j = joined(async (_call, to) => {
      to.head(200, 'text/event-stream; charset=utf-8');
      to.chunk('event: delta\ndata: {"content":"Hel"}\n\n');
      await turn();
      to.chunk('event: delta\ndata: {"content":"lo"}\n\n');
      await turn();
      to.chunk(`event: done\ndata: ${JSON.stringify(result)}\n\n`);
      to.end();
    });
    const deltas: string[] = [];
    expect(await requestCompletion(j.client, request, new AbortController().signal, (d) => deltas.push(d))).toEqual(result);
    expect(deltas).toEqual(['Hel', 'lo']);
    expect(j.toProgram.map((m) => m.type)).toEqual(['service-head', 'service-chunk', 'service-chunk', 'service-chunk', 'service-end']);
  });

  it('when the service refuses, then the code is the failure', async () => {
    const j = joined(async (_call, to) => {
      to.head(401, 'application/json; charset=utf-8');
      to.chunk(JSON.stringify({ error: 'Invalid gateway token', code: 'TOKEN_INVALID' }));
      to.end();
    });
    await expect(requestCompletion(j.client, request, new AbortController().signal)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('when the program cancels while the service answers, then service-abort aborts the call\'s signal and nothing more is sent for it', async () => {
    let aborted: Promise<void> | undefined;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const j = joined(async (_call, to, signal) => {
      aborted = new Promise((r) => signal.addEventListener('abort', () => r(), { once: true }));
      started();
      await aborted;
      // a late answer after the abort is dropped
      to.head(200, 'application/json');
      to.chunk(JSON.stringify(result));
      to.end();
    });
    const cancel = new AbortController();
    const pending = requestCompletion(j.client, request, cancel.signal);
    pending.catch(() => undefined);
    await running;
    cancel.abort();
    await aborted;
    await turn();
    expect(j.toSupervisor.map((m) => m.type)).toEqual(['service-call', 'service-abort']);
    expect(j.toProgram).toEqual([]);
    await expect(pending).rejects.toThrow();
  });

  it('when the channel closes under an answer, or the program ends (endAll), then the call\'s signal is aborted', async () => {
    let open = true;
    const signals: AbortSignal[] = [];
    const j = joined(async (_call, to, signal) => {
      signals.push(signal);
      to.head(200, 'text/event-stream');
      await turn();
      open = false;
      to.chunk('event: delta\ndata: {"content":"x"}\n\n');
    }, () => open);
    void requestCompletion(j.client, request, new AbortController().signal, () => undefined).catch(() => undefined);
    await expect.poll(() => signals[0]?.aborted).toBe(true);

    const k = joined(async (_call, _to, signal) => {
      signals.push(signal);
      await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
    });
    void requestCompletion(k.client, request, new AbortController().signal).catch(() => undefined);
    await expect.poll(() => signals.length).toBe(2);
    k.supervisor.endAll();
    expect(signals[1]!.aborted).toBe(true);
  });

  it('when a call names another path or is malformed, then service-error, and the service is never asked', async () => {
    let asked = 0;
    const sent: SupervisorMessage[] = [];
    const relay = new HostCallRelay({ calls: () => ({ answer: async () => void asked++ }), gatewayToken: 'gw_instance', send: (m) => (sent.push(m), true), reply: () => false, log: () => undefined });
    relay.handle({ ...msg, type: 'service-call', id: '1', path: '/api/settings', accept: 'application/json', authorization: 'Bearer x', body: '{}' });
    relay.handle({ ...msg, type: 'service-call', id: '2', path: '/api/runtime/chat', accept: 'application/json', authorization: 'Bearer x', body: 7 as never });
    expect(sent).toEqual([{ ...msg, type: 'service-error', id: '1' }, { ...msg, type: 'service-error', id: '2' }]);
    expect(asked).toBe(0);
    expect(relay.handle({ ...msg, type: 'pong', id: '3' })).toBe(false);
  });

  it('when the door rejects (the service could not be reached, or a bug), then the program hears service-error at once', async () => {
    const j = joined(async () => {
      throw new Error('bug');
    });
    await expect(requestCompletion(j.client, request, new AbortController().signal)).rejects.toBeInstanceOf(ServiceCallError);
    expect(j.toProgram.map((m) => m.type)).toEqual(['service-error']);
  });
  describe('a chat call that names its delivery (final)', () => {
    const answerWith = (status: number, contentType: string, body: string) =>
      async (_call: HostCall, to: HostCallAnswer) => {
        to.head(status, contentType);
        to.chunk(body);
        to.end();
      };

    it('when the answer is a whole 2xx result, then the supervisor takes it as that delivery\'s reply, the program hears only service-final and its call ends AnsweredAsReply', async () => {
      const j = joined(answerWith(200, 'application/json; charset=utf-8', JSON.stringify({ ...result, extra: 'ignored' })));
      j.waitingDeliveries.add('delivery-1');
      await expect(requestCompletion({ ...j.client, final: 'delivery-1' }, request, new AbortController().signal)).rejects.toBeInstanceOf(AnsweredAsReply);
      expect(j.replies).toEqual([{ id: 'delivery-1', reply: result }]);
      expect(j.toProgram.map((m) => m.type)).toEqual(['service-final']);
      expect(j.toSupervisor).toEqual([expect.objectContaining({ type: 'service-call', final: 'delivery-1' })]);
    });

    it.each([
      ['a refusal', 402, 'application/json', JSON.stringify({ error: 'No units left', code: 'USAGE_EXHAUSTED' }), expect.objectContaining({ code: 'USAGE_EXHAUSTED' })],
      ['not labelled JSON', 200, 'text/plain', JSON.stringify(result), result],
      ['JSON that does not parse', 200, 'application/json', '{"content":', expect.objectContaining({ code: 'BAD_RESPONSE' })],
      ['JSON that is not {content, model, usage}', 200, 'application/json', JSON.stringify({ content: 'Hello' }), expect.objectContaining({ code: 'BAD_RESPONSE' })],
    ])('when the answer is %s, then it crosses as service-answer, no reply is taken, and the program reads it as before', async (_what, status, contentType, body, read) => {
      const j = joined(answerWith(status, contentType, body));
      j.waitingDeliveries.add('delivery-1');
      const outcome = await requestCompletion({ ...j.client, final: 'delivery-1' }, request, new AbortController().signal).catch((e: unknown) => e);
      expect(outcome).toEqual(read);
      expect(j.replies).toEqual([]);
      expect(j.toProgram.map((m) => m.type)).toEqual(['service-answer']);
    });

    it('when no delivery of that name waits (cancelled, or not the program\'s), then the answer crosses as service-answer and the program reads the result', async () => {
      const j = joined(answerWith(200, 'application/json', JSON.stringify(result)));
      expect(await requestCompletion({ ...j.client, final: 'someone-else' }, request, new AbortController().signal)).toEqual(result);
      expect(j.replies).toEqual([]);
      expect(j.toProgram.map((m) => m.type)).toEqual(['service-answer']);
    });

    it('when the named call streams, or is a tool call, then the name is ignored', async () => {
      const stream = joined(async (_call, to) => {
        to.head(200, 'text/event-stream');
        to.chunk(`event: done\ndata: ${JSON.stringify(result)}\n\n`);
        to.end();
      });
      stream.waitingDeliveries.add('delivery-1');
      expect(await requestCompletion({ ...stream.client, final: 'delivery-1' }, request, new AbortController().signal, () => undefined)).toEqual(result);
      expect(stream.replies).toEqual([]);

      const sent: SupervisorMessage[] = [];
      let replied = 0;
      const relay = new HostCallRelay({
        calls: () => ({ answer: answerWith(200, 'application/json', JSON.stringify(result)) }),
        gatewayToken: 'gw_instance',
        send: (m) => (sent.push(m), true),
        reply: () => (replied++, true),
        log: () => undefined,
      });
      relay.handle({ ...msg, type: 'service-call', id: 't1', path: '/api/runtime/tools', accept: 'application/json', authorization: '', body: '{}', final: 'delivery-1' });
      await expect.poll(() => sent.map((m) => m.type)).toEqual(['service-answer']);
      expect(replied).toBe(0);
    });
  });
});
