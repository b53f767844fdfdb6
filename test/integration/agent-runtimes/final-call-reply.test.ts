import { fork, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { msg, type HostMessage, type SupervisorMessage } from '../../../src/agent-host/agent-host-protocol.js';
import { agentHostEntry } from '../../../src/adapters/outbound/agent-runtimes/process/agent-host-entry.js';

/**
 * The real agent-host program, forked with its calls relayed (AGENT_HOST_SERVICE_VIA=supervisor),
 * and this test as its supervisor, message by message: a delivery whose reply is one chat call's
 * answer names itself in that call (`final`, decision 0478). A supervisor that takes the answer as
 * the reply sends `service-final` and the program sends nothing more for the delivery; a supervisor
 * of the last release, which answers the call as before, still gets the program's `reply`.
 */
const result = { content: 'Hello', model: 'm', usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } };
const delivery = { agentId: 'agent-1', model: 'm', content: 'hi', config: {}, memory: {}, history: [] };
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** The program, ready (hello, init, ping, pong), every message it sends recorded. */
async function program() {
  const entry = agentHostEntry();
  const child = fork(entry.file, [], {
    execArgv: entry.execArgv,
    env: { PATH: process.env.PATH, AGENT_HOST_USER_ID: 'u', AGENT_HOST_SERVICE_URL: 'http://127.0.0.1:9', AGENT_HOST_RUNTIME_VERSION: 't', AGENT_HOST_SERVICE_VIA: 'supervisor' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    serialization: 'json',
  });
  children.push(child);
  const received: HostMessage[] = [];
  child.on('message', (m) => received.push(m as HostMessage));
  const send = (m: SupervisorMessage) => child.send(m);
  const next = async (type: HostMessage['type'], from = 0) => {
    await expect.poll(() => received.slice(from).find((m) => m.type === type), { timeout: 20_000, interval: 10 }).toBeDefined();
    return received.slice(from).find((m) => m.type === type)!;
  };
  await next('hello');
  send({ ...msg, type: 'init', gatewayToken: 'gw_token' });
  send({ ...msg, type: 'ping', id: 'ready' });
  await next('pong');
  return { received, send, next };
}

describe('a delivery answered by one chat call, with its calls relayed', () => {
  it('when the supervisor takes the answer as the reply (service-final), then the program sends neither reply nor failed and goes on answering', async () => {
    const p = await program();
    p.send({ ...msg, type: 'deliver', id: 'd1', delivery, stream: false });
    const call = (await p.next('service-call')) as Extract<HostMessage, { type: 'service-call' }>;
    expect(call).toMatchObject({ path: '/api/runtime/chat', accept: 'application/json', final: 'd1' });
    p.send({ ...msg, type: 'service-final', id: call.id });
    // a ping after it is answered: everything the program would have sent for d1 came before its pong
    const from = p.received.length;
    p.send({ ...msg, type: 'ping', id: 'after' });
    await p.next('pong', from);
    expect(p.received.filter((m) => 'id' in m && m.id === 'd1')).toEqual([]);

    // the next delivery is answered as the old supervisor answers: the program replies itself
    p.send({ ...msg, type: 'deliver', id: 'd2', delivery, stream: false });
    const second = (await p.next('service-call', from)) as Extract<HostMessage, { type: 'service-call' }>;
    p.send({ ...msg, type: 'service-answer', id: second.id, status: 200, contentType: 'application/json', data: JSON.stringify(result) });
    expect(await p.next('reply', from)).toEqual({ ...msg, type: 'reply', id: 'd2', reply: result });
  });

  it('when the delivery streams or offers tools, then no call names it', async () => {
    const p = await program();
    p.send({ ...msg, type: 'deliver', id: 's1', delivery, stream: true });
    const streamed = (await p.next('service-call')) as Extract<HostMessage, { type: 'service-call' }>;
    expect(streamed.accept).toBe('text/event-stream');
    expect(streamed).not.toHaveProperty('final');
    p.send({ ...msg, type: 'cancel', id: 's1' });

    const from = p.received.length;
    const tool = { name: 'lookup', description: 'Looks up', parameters: { type: 'object', properties: {} } };
    p.send({ ...msg, type: 'deliver', id: 't1', delivery: { ...delivery, tools: [tool], maxToolSteps: 2 }, stream: false });
    const withTools = (await p.next('service-call', from)) as Extract<HostMessage, { type: 'service-call' }>;
    expect(withTools).not.toHaveProperty('final');
    p.send({ ...msg, type: 'service-answer', id: withTools.id, status: 200, contentType: 'application/json', data: JSON.stringify(result) });
    expect(await p.next('reply', from)).toEqual({ ...msg, type: 'reply', id: 't1', reply: result });
  });
});
