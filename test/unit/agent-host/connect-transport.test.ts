import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectTransport } from '../../../src/agent-host/agent-host-transport.js';
import { msg } from '../../../src/agent-host/agent-host-protocol.js';
import { ConnectListener, type Admission, type ConnectRequest } from '../../../src/adapters/outbound/agent-runtimes/swarm/connect-listener.js';
import { ConnectedHost, INIT_WITHOUT_TOKEN } from '../../../src/adapters/outbound/agent-runtimes/swarm/connected-host.js';
import { requestThrough } from '../../../src/adapters/outbound/agent-runtimes/agent-host-delivery.js';
import { waitFor } from '../../support/polling.js';

/**
 * The connect-in transport between a program and its supervisor (the swarm runtime's), on real
 * loopback sockets: the program's side (connectTransport) against the supervisor's listener
 * (ConnectListener) and channel (ConnectedHost).
 */
describe('the connect-in transport', () => {
  const closing: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of closing.splice(0).reverse()) await c();
  });

  async function supervisor(admit: (r: ConnectRequest) => Admission | Promise<Admission>) {
    const listener = new ConnectListener(async (r) => admit(r), () => undefined);
    const at = await listener.listen('127.0.0.1', 0);
    closing.push(() => listener.close());
    return `http://127.0.0.1:${at.port}/agent-host/connect`;
  }
  /** A program's end that answers ping with pong, as the agent-host program does. */
  function program(url: string, task = 'task-1') {
    const t = connectTransport({ url, userId: 'user-1', task, secret: 'gen.secret', retryMs: 50 });
    const seen: unknown[] = [];
    let closed = false;
    let drops = 0;
    t.onMessage((m) => {
      seen.push(m);
      const x = m as { type?: string; id?: string };
      if (x.type === 'ping') t.send({ ...msg, type: 'pong', id: x.id });
    });
    t.onClose(() => (closed = true));
    t.onDrop(() => drops++);
    return { seen, closed: () => closed, drops: () => drops };
  }

  it('when the supervisor takes the connection and writes at once, then the messages sharing the 101\'s packet are read and answered', async () => {
    const hosts: ConnectedHost[] = [];
    const seen: ConnectRequest[] = [];
    const url = await supervisor((r) => {
      seen.push(r);
      return {
        ok: true,
        take: (socket: Socket, head: Buffer) => {
          const host = new ConnectedHost(socket, r.task, { calls: () => { throw new Error('no calls here'); }, gatewayToken: 'gw', log: () => undefined }, head);
          hosts.push(host);
          closing.push(() => host.close());
          host.send(INIT_WITHOUT_TOKEN);
        },
      };
    });
    const p = program(url);
    await waitFor(async () => hosts.length, (n) => n === 1);
    expect(seen).toEqual([{ userId: 'user-1', task: 'task-1', secret: 'gen.secret' }]);
    for (let i = 0; i < 5; i++) expect(await requestThrough(hosts[0]!, { ...msg, type: 'ping', id: randomUUID() })).toMatchObject({ type: 'pong' });
    expect(p.seen[0]).toEqual(INIT_WITHOUT_TOKEN);
  });

  it('when the connection drops, then the program hears it and dials again; refused as stale (403), it is told to end and dials no more', async () => {
    let dials = 0;
    let stale = false;
    const hosts: ConnectedHost[] = [];
    const url = await supervisor((r) => {
      dials++;
      if (stale) return { ok: false, status: 403, code: 'EPOCH_FENCED' };
      return {
        ok: true,
        take: (socket: Socket, head: Buffer) => {
          const host = new ConnectedHost(socket, r.task, { calls: () => { throw new Error('no calls here'); }, gatewayToken: 'gw', log: () => undefined }, head);
          hosts.push(host);
          closing.push(() => host.close());
        },
      };
    });
    const p = program(url);
    await waitFor(async () => hosts.length, (n) => n === 1);
    hosts[0]!.close();
    await waitFor(async () => hosts.length, (n) => n === 2);
    expect(p.drops()).toBe(1);
    expect(p.closed()).toBe(false);
    stale = true;
    hosts[1]!.close();
    await waitFor(async () => p.closed(), (c) => c);
    const after = dials;
    await new Promise((r) => setTimeout(r, 300)); // no dial after the refusal (the retry is 50 ms)
    expect(dials).toBe(after);
  });

  it('when the supervisor is not there yet or answers 404, then the program keeps dialling until it is taken', async () => {
    let dials = 0;
    const hosts: ConnectedHost[] = [];
    const url = await supervisor((r) => {
      if (++dials < 3) return { ok: false, status: 404, code: 'NOT_HERE' };
      return {
        ok: true,
        take: (socket: Socket, head: Buffer) => {
          const host = new ConnectedHost(socket, r.task, { calls: () => { throw new Error('no calls here'); }, gatewayToken: 'gw', log: () => undefined }, head);
          hosts.push(host);
          closing.push(() => host.close());
        },
      };
    });
    const p = program(url);
    await waitFor(async () => hosts.length, (n) => n === 1);
    expect(dials).toBe(3);
    expect(p.closed()).toBe(false);
  });

  it('when a request is not an agent-host upgrade or lacks its headers, then it is refused before anything is asked', async () => {
    let asked = 0;
    const url = await supervisor(() => (asked++, { ok: false, status: 404, code: 'NOT_HERE' }));
    expect((await fetch(url)).status).toBe(426);
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(url, { headers: { connection: 'Upgrade', upgrade: 'agent-host-lines', authorization: 'Bearer has spaces', 'x-agent-host-user': 'u', 'x-agent-host-task': 't' } });
      req.on('response', (res) => (res.resume(), resolve(res.statusCode ?? 0)));
      req.on('upgrade', (_r, s) => (s.destroy(), resolve(101)));
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(401);
    expect(asked).toBe(0);
  });
});
