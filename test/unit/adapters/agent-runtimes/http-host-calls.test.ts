import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { msg, type SupervisorMessage } from '../../../../src/agent-host/agent-host-protocol.js';
import { HostCallRelay } from '../../../../src/adapters/outbound/agent-runtimes/host-call-relay.js';
import { HttpHostCalls } from '../../../../src/adapters/outbound/agent-runtimes/http-host-calls.js';

/**
 * The worker's half of a network-less container's calls to the service (HostCallRelay over
 * HttpHostCalls): only the two runtime paths of its own service, the instance's own token (never
 * the program's Authorization), the answer streamed back in order.
 */
const seen: { url: string; method: string; headers: IncomingHttpHeaders; body: string }[] = [];
let connections = 0;
/** Resolves when the server sees the request with this body closed by the client before its answer ended. */
const clientLeft = new Map<string, () => void>();
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    seen.push({ url: req.url ?? '', method: req.method ?? '', headers: req.headers, body });
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: delta\ndata: {"content":"Hi"}\n\n');
    if (body === '"cut"') return void res.socket?.destroy(); // the service breaks off mid-answer
    if (body === '"hang"') return void res.on('close', () => clientLeft.get(body)?.());
    // a character whose bytes two reads split
    const tail = Buffer.from('event: done\ndata: {"content":"Grüße"}\n\n');
    const cut = tail.indexOf(0xc3) + 1;
    res.write(tail.subarray(0, cut));
    setTimeout(() => res.end(tail.subarray(cut)), 5);
  });
});
server.on('connection', () => connections++);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise((resolve) => server.close(resolve)));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

function relay() {
  const sent: SupervisorMessage[] = [];
  const calls = new HttpHostCalls(url);
  const r = new HostCallRelay({ calls: () => calls, gatewayToken: 'gw_instance', send: (m) => (sent.push(m), true), reply: () => false, log: () => undefined });
  const until = (type: string) => expect.poll(() => sent.map((m) => m.type), { timeout: 2_000, interval: 10 }).toContain(type);
  return { r, sent, until };
}

describe('a host\'s calls relayed to the service over HTTP', () => {
  it('when the program calls /api/runtime/chat, then the worker posts it to its service with the instance\'s own token, not the program\'s, and streams the answer back', async () => {
    const { r, sent, until } = relay();
    r.handle({ ...msg, type: 'service-call', id: 'c1', path: '/api/runtime/chat', accept: 'text/event-stream', authorization: 'Bearer gw_the-program-says', body: '{"a":1}' });
    await until('service-end');
    expect(seen.at(-1)).toMatchObject({ url: '/api/runtime/chat', method: 'POST', body: '{"a":1}', headers: { authorization: 'Bearer gw_instance', accept: 'text/event-stream' } });
    expect(sent[0]).toMatchObject({ type: 'service-head', id: 'c1', status: 200, contentType: 'text/event-stream' });
    expect(sent.filter((m) => m.type === 'service-chunk').map((m) => (m as { data: string }).data).join('')).toContain('event: done\ndata: {"content":"Grüße"}');
    expect(sent.at(-1)).toMatchObject({ type: 'service-end', id: 'c1' });
  });

  it('when the program calls again, then the relay reuses its connection to the service (no connect per call)', async () => {
    const { r, sent, until } = relay();
    // an answer whole within one turn crosses as one service-answer, else it ends with service-end
    const over = () => expect.poll(() => sent.at(-1)?.type, { timeout: 2_000, interval: 10 }).toMatch(/^service-(end|answer)$/);
    r.handle({ ...msg, type: 'service-call', id: 'k0', path: '/api/runtime/chat', accept: 'application/json', authorization: 'Bearer gw_x', body: '{}' });
    await over();
    const before = connections;
    for (const id of ['k1', 'k2', 'k3']) {
      sent.length = 0;
      r.handle({ ...msg, type: 'service-call', id, path: '/api/runtime/chat', accept: 'application/json', authorization: 'Bearer gw_x', body: '{}' });
      await over();
      expect(sent.at(-1)).toMatchObject({ id });
    }
    expect(connections).toBe(before);
  });

  it('when the service breaks off mid-answer, then the program gets service-error after what arrived, never service-end', async () => {
    const { r, sent, until } = relay();
    r.handle({ ...msg, type: 'service-call', id: 'cut', path: '/api/runtime/chat', accept: 'text/event-stream', authorization: 'Bearer gw_x', body: '"cut"' });
    await until('service-error');
    expect(sent.map((m) => m.type)).not.toContain('service-end');
    expect(sent.at(-1)).toEqual({ ...msg, type: 'service-error', id: 'cut' });
  });

  it('when the program aborts a call, then the service sees the request closed and nothing more is sent for it', async () => {
    const { r, sent, until } = relay();
    const left = new Promise<void>((resolve) => clientLeft.set('"hang"', resolve));
    r.handle({ ...msg, type: 'service-call', id: 'h', path: '/api/runtime/chat', accept: 'text/event-stream', authorization: 'Bearer gw_x', body: '"hang"' });
    await until('service-chunk');
    r.handle({ ...msg, type: 'service-abort', id: 'h' });
    await left;
    const count = sent.length;
    await new Promise((res) => setTimeout(res, 50));
    expect(sent.length).toBe(count);
    expect(sent.map((m) => m.type)).not.toContain('service-error');
  });

  it('when the program asks for any other path, another host through the path, or a malformed call, then nothing is sent and it gets service-error', async () => {
    const before = seen.length;
    const { r, sent, until } = relay();
    for (const path of ['/api/admin/users', '/api/runtime/chat/../../admin', '//evil.example/api/runtime/chat', '/api/runtime/chat?x=1']) {
      sent.length = 0;
      r.handle({ ...msg, type: 'service-call', id: path, path, accept: 'application/json', authorization: 'Bearer gw_x', body: '{}' });
      await until('service-error');
      expect(sent).toEqual([{ ...msg, type: 'service-error', id: path }]);
    }
    sent.length = 0;
    r.handle({ ...msg, type: 'service-call', id: 'm', path: '/api/runtime/tools', accept: 'application/json', authorization: 'Bearer gw_x', body: 42 as unknown as string });
    await until('service-error');
    expect(sent).toEqual([{ ...msg, type: 'service-error', id: 'm' }]);
    expect(seen.length).toBe(before);
  });
});
