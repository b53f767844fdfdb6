import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallCancelled, requestCompletion, requestTool, ServiceCallError } from '../../../src/agent-host/agent-host-service-client.js';

/** A raw server: each test says what the next answer is, byte for byte. */
let answer: (res: ServerResponse) => void = (res) => res.end();
let closed: Promise<void> = Promise.resolve();
const server = createServer((req, res) => {
  closed = new Promise((resolve) => res.on('close', () => resolve()));
  req.resume();
  req.on('end', () => answer(res));
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));

const request = { agentId: 'a', model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };
const call = (o: { onDelta?: (t: string) => void; signal?: AbortSignal; idleTimeoutMs?: number } = {}) =>
  requestCompletion({ serviceUrl: `${url}/`, gatewayToken: 't', idleTimeoutMs: o.idleTimeoutMs ?? 2_000 }, request, o.signal ?? new AbortController().signal, o.onDelta);
const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as ServiceCallError);
const sse = (res: ServerResponse, body: string) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(body);
const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };

describe('the program\'s call to the service', () => {
  it('when the service streams deltas then done, then each delta is passed on and done is the result', async () => {
    answer = (res) => sse(res, `event: delta\ndata: {"content":"a"}\n\n: keep-alive\n\nevent: ping\ndata: {}\n\nevent: delta\ndata: {"content":"b"}\n\nevent: done\ndata: ${JSON.stringify({ content: 'ab', model: 'x', usage })}\n\n`);
    const deltas: string[] = [];
    await expect(call({ onDelta: (t) => deltas.push(t) })).resolves.toEqual({ content: 'ab', model: 'x', usage });
    expect(deltas).toEqual(['a', 'b']);
  });

  it('when answers follow one another, then they share one kept-alive connection (the stream is read to its end)', async () => {
    // the sockets the answers were served on (a connection kept from an earlier test may serve them all)
    const sockets = new Set<unknown>();
    const count = (req: { socket: unknown }) => sockets.add(req.socket);
    server.on('request', count);
    try {
      answer = (res) => sse(res, `event: delta\ndata: {"content":"a"}\n\nevent: done\ndata: ${JSON.stringify({ content: 'a', model: 'x', usage })}\n\n`);
      for (let i = 0; i < 3; i++) await expect(call({ onDelta: () => {} })).resolves.toMatchObject({ content: 'a' });
      answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ content: 'b', model: 'x', usage }));
      await expect(call()).resolves.toMatchObject({ content: 'b' });
      expect(sockets.size).toBe(1);
    } finally {
      server.off('request', count);
    }
  });

  it('when the answer is not the documented format, then it fails with BAD_RESPONSE', async () => {
    answer = (res) => sse(res, 'event: delta\ndata: {"content":"a"}\n\n');
    expect((await failure(call({ onDelta: () => {} })))?.code).toBe('BAD_RESPONSE'); // ended without done
    answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"content":"x"}');
    expect((await failure(call()))?.code).toBe('BAD_RESPONSE');
    answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    expect((await failure(call({ onDelta: () => {} })))?.code).toBe('BAD_RESPONSE'); // not a stream
    answer = (res) => res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>bad gateway</h1>');
    const http = await failure(call());
    expect(http).toBeInstanceOf(ServiceCallError);
    expect(http?.code).toBe('BAD_RESPONSE');
  });

  it('when the service answers an error status with a code, then that code is the failure', async () => {
    answer = (res) => res.writeHead(502, { 'content-type': 'application/json' }).end('{"error":"upstream down","code":"PROVIDER_ERROR"}');
    const err = await failure(call({ onDelta: () => {} }));
    expect(err).toMatchObject({ code: 'PROVIDER_ERROR', message: 'upstream down' });
  });

  it('when the service goes quiet, then the call fails with SERVICE_TIMEOUT and the connection is closed', async () => {
    answer = (res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).write('event: delta\ndata: {"content":"a"}\n\n');
    expect((await failure(call({ onDelta: () => {}, idleTimeoutMs: 200 })))?.code).toBe('SERVICE_TIMEOUT');
    await closed;
  });

  it('when the supervisor cancels, then the call ends with CallCancelled and the connection is closed', async () => {
    let arrived = false;
    answer = () => void (arrived = true); // never answers
    const controller = new AbortController();
    const pending = call({ signal: controller.signal });
    await expect.poll(() => arrived).toBe(true);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(CallCancelled);
    await closed;
  });
});

describe('the program\'s tool calls to the service', () => {
  const tool = (idleTimeoutMs = 2_000) =>
    requestTool({ serviceUrl: url, gatewayToken: 't', idleTimeoutMs }, { agentId: 'a', name: 'calendar__schedule', arguments: '{}' }, new AbortController().signal);

  it('when the service answers a tool result or a refusal, then the body is the result as is', async () => {
    answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"eventId":"e1"}');
    await expect(tool()).resolves.toEqual({ success: true, eventId: 'e1' });
    answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"error":"no","code":"SKILL_DISABLED"}');
    await expect(tool()).resolves.toEqual({ error: 'no', code: 'SKILL_DISABLED' });
  });

  it('when the service refuses the credential or answers something else than an object, then the call fails', async () => {
    answer = (res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Invalid gateway token","code":"TOKEN_INVALID"}');
    expect((await failure(tool()))?.code).toBe('TOKEN_INVALID');
    answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[1]');
    expect((await failure(tool()))?.code).toBe('BAD_RESPONSE');
  });

  it('when a chat answer carries tool calls, then they are part of the result; malformed ones make it BAD_RESPONSE', async () => {
    const calls = [{ id: 'c1', name: 'calendar__schedule', arguments: '{"title":"x"}' }];
    answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ content: '', model: 'x', usage, tool_calls: calls }));
    await expect(call()).resolves.toEqual({ content: '', model: 'x', usage, tool_calls: calls });
    answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ content: '', model: 'x', usage, tool_calls: [{ id: 1 }] }));
    expect((await failure(call()))?.code).toBe('BAD_RESPONSE');
  });
});
