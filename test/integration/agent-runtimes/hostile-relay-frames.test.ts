import { fork, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '../../../src/agent-host/agent-host-protocol.js';
import { until } from '../../support/polling.js';

/**
 * A network-less container's service calls arrive on its attach stream and the worker makes them
 * (the docker runtime's relay, decision 0403). Whatever a container writes there, the worker
 * process lives on, the service hears only the two runtime paths with the instance's own token, and
 * one container's calls cannot crowd out another's. The worker is a real process running the real
 * ContainerHost (relay-worker.ts); the test plays the daemon's side of two attach streams over real
 * sockets, and a real HTTP server stands in for the service.
 */

const TOKEN = 'gw_the-instance-own-token';
const result = { content: 'ok', model: 'm', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } };

/** The service: every request recorded; while `holding`, answers wait until released. */
const seen: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];
let holding = false;
const held: ServerResponse[] = [];
const service = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    seen.push({ url: req.url ?? '', headers: req.headers, body });
    if (holding) return void held.push(res);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
  });
});
const release = () => {
  holding = false;
  for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
};

let worker: ChildProcess;
let port = 0;
let workerLog = '';
const alive = () => worker.exitCode === null && worker.signalCode === null;

/** The daemon's side of one container's attach stream: writes the program's stdout frames, reads what the worker sends the program. */
async function container() {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const received: Record<string, any>[] = [];
  let rest = '';
  socket.on('data', (d: Buffer) => {
    const lines = (rest + d.toString('utf8')).split('\n');
    rest = lines.pop()!;
    for (const l of lines) received.push(JSON.parse(l));
  });
  socket.on('error', () => undefined);
  /** One line of the program's stdout, in one multiplexed frame (stream 1). */
  const line = (text: string) => {
    const payload = Buffer.from(`${text}\n`, 'utf8');
    const header = Buffer.alloc(8);
    header[0] = 1;
    header.writeUInt32BE(payload.length, 4);
    socket.write(Buffer.concat([header, payload]));
  };
  const call = (id: unknown, fields: Record<string, unknown> = {}) =>
    line(JSON.stringify({ ...msg, type: 'service-call', id, path: '/api/runtime/chat', accept: 'application/json', authorization: 'Bearer gw_what-the-container-says', body: '{"agentId":"a"}', ...fields }));
  /** The call's last message once it is over: `service-answer`, `service-end` or `service-error`. */
  const outcome = async (id: string) => {
    const over = () => received.find((m) => m.id === id && ['service-answer', 'service-end', 'service-error'].includes(m.type));
    await expect.poll(() => over() !== undefined || !alive(), { timeout: 10_000, interval: 20 }).toBe(true);
    expect(alive(), `the worker exited (code ${worker.exitCode}): ${workerLog}`).toBe(true);
    return over()!;
  };
  return { socket, received, line, call, outcome };
}

beforeAll(async () => {
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  worker = fork('test/support/agent-runtimes/relay-worker.ts', [], { execArgv: ['--import', 'tsx'], env: { ...process.env, RELAY_SERVICE_URL: url, RELAY_TOKEN: TOKEN }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let out = '';
  worker.stdout!.on('data', (d) => (out += d));
  worker.stderr!.on('data', (d) => (workerLog += d));
  await until('the relay worker\'s port', 20_000, () => out.includes('\n'), 25);
  port = (JSON.parse(out) as { port: number }).port;
});

afterAll(async () => {
  worker?.kill('SIGKILL');
  await new Promise((resolve) => service.close(resolve));
});

describe('a container\'s hostile frames on the attach stream', () => {
  it('when a call carries CR/LF in its Authorization or Accept, or headers that are not text, then the worker survives, and the service hears only the instance\'s own token', async () => {
    const c = await container();
    const before = seen.length;
    c.call('crlf-auth', { authorization: 'Bearer x\r\nX-Injected: 1' });
    c.call('crlf-accept', { accept: 'application/json\r\nX-Injected: 1' });
    c.call('lf-auth', { authorization: 'Bearer x\nX-Injected: 1' });
    c.call('number-auth', { authorization: 42 });
    c.call('object-accept', { accept: { a: 1 } });
    for (const id of ['crlf-auth', 'crlf-accept', 'lf-auth', 'number-auth', 'object-accept']) expect(['service-answer', 'service-end']).toContain((await c.outcome(id)).type);
    expect(alive(), workerLog).toBe(true);
    const heard = seen.slice(before);
    expect(heard).toHaveLength(5);
    for (const s of heard) {
      expect(s.url).toBe('/api/runtime/chat');
      expect(s.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(s.headers.accept).toBe('application/json');
      expect(s.headers['x-injected']).toBeUndefined();
    }
  });

  it('when calls name another route, a body beyond the bound, or a malformed line or message, then each is refused or ignored, the service never hears them, and the next good call is answered', async () => {
    const c = await container();
    const before = seen.length;
    for (const path of ['/api/admin/users', '/api/runtime/chat/../../admin', '//evil.example/api/runtime/chat', '/api/runtime/chat?x=1', 'http://evil.example/', 7]) c.call(`route ${String(path)}`, { path });
    c.call('huge', { body: 'x'.repeat(3 * 2 ** 20) });
    c.call('body-not-text', { body: { agentId: 'a' } });
    for (const l of ['{not json', '[]', 'null', '"service-call"', '{}', JSON.stringify({ ...msg, type: 'service-call' }), JSON.stringify({ ...msg, type: 'no-such-type', id: 'x' }), JSON.stringify({ ...msg, type: 'service-abort', id: 'never-called' })]) c.line(l);
    c.call({ an: 'object id' });
    c.call('i'.repeat(10_000));
    for (const id of ['route /api/admin/users', 'route /api/runtime/chat/../../admin', 'route //evil.example/api/runtime/chat', 'route /api/runtime/chat?x=1', 'route http://evil.example/', 'route 7', 'huge', 'body-not-text']) {
      expect(await c.outcome(id), id).toMatchObject({ type: 'service-error' });
    }
    c.call('good');
    expect(await c.outcome('good')).toMatchObject({ type: 'service-answer', status: 200 });
    expect(seen.slice(before).map((s) => s.body)).toEqual(['{"agentId":"a"}']);
    expect(c.received.some((m) => typeof m.id === 'string' && m.id.length > 1_000)).toBe(false);
    expect(alive(), workerLog).toBe(true);
  });

  it('when one container floods calls, then the service holds at most its bound of them in flight, the rest are refused at once, and another container\'s call is still answered', async () => {
    const { MAX_CALLS_IN_FLIGHT } = await import('../../../src/adapters/outbound/agent-runtimes/host-call-relay.js');
    const flood = await container();
    const other = await container();
    const before = seen.length;
    holding = true;
    try {
      for (let i = 0; i < 200; i++) flood.call(`f${i}`);
      await expect.poll(() => seen.length - before, { timeout: 10_000, interval: 20 }).toBe(MAX_CALLS_IN_FLIGHT);
      await expect.poll(() => flood.received.filter((m) => m.type === 'service-error').length, { timeout: 10_000, interval: 20 }).toBe(200 - MAX_CALLS_IN_FLIGHT);
      other.call('neighbour');
      await expect.poll(() => seen.length - before, { timeout: 10_000, interval: 20 }).toBe(MAX_CALLS_IN_FLIGHT + 1);
    } finally {
      release();
    }
    expect(await other.outcome('neighbour')).toMatchObject({ type: 'service-answer', status: 200 });
    // the flood's own calls in flight end well, and its bound is free again
    await expect.poll(() => flood.received.filter((m) => m.type === 'service-answer').length, { timeout: 10_000, interval: 20 }).toBe(MAX_CALLS_IN_FLIGHT);
    flood.call('after');
    expect(await flood.outcome('after')).toMatchObject({ type: 'service-answer', status: 200 });
    expect(alive(), workerLog).toBe(true);
  });
});
