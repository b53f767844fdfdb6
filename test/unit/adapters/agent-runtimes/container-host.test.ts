import { Duplex, PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ContainerHost } from '../../../../src/adapters/outbound/agent-runtimes/docker/container-host.js';
import { msg } from '../../../../src/agent-host/agent-host-protocol.js';
import { stdioTransport } from '../../../../src/agent-host/agent-host-transport.js';

/** The daemon's side of an attach stream: each write arrives in `written` (several corked ones as one); `push` sends it multiplexed bytes. */
function attachStream() {
  const written: string[] = [];
  const stream = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, done) {
      written.push(chunk.toString('utf8'));
      done();
    },
    writev(chunks, done) {
      written.push(chunks.map((c) => (c.chunk as Buffer).toString('utf8')).join(''));
      done();
    },
  });
  return { stream, written, push: (b: Buffer) => stream.push(b), end: () => stream.push(null) };
}

/** One turn of the event loop: what was sent in it has been written. */
const turn = () => new Promise((r) => setImmediate(r));

const frame = (kind: 1 | 2, text: string) => {
  const payload = Buffer.from(text, 'utf8');
  const header = Buffer.alloc(8);
  header[0] = kind;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
};

describe('ContainerHost: the agent-host protocol over an attach stream', () => {
  it('writes one JSON line per message and routes stdout lines to whoever waits for their id, across split frames; stderr lines go to the log', async () => {
    const a = attachStream();
    const logged: string[] = [];
    const host = new ContainerHost(a.stream, (l) => logged.push(l));
    const got: unknown[] = [];
    expect(host.open({ ...msg, type: 'ping', id: 'p1' }, { onMessage: (m) => got.push(m), onEnd: () => got.push('end') })).toBe(true);
    await turn();
    expect(JSON.parse(a.written.join(''))).toEqual({ ...msg, type: 'ping', id: 'p1' });

    const bytes = Buffer.concat([frame(2, 'warming up\n'), frame(1, `${JSON.stringify({ ...msg, type: 'pong', id: 'p1' })}\n`), frame(1, `${JSON.stringify({ ...msg, type: 'pong', id: 'other' })}\nnot json\n`)]);
    // every split point, one byte at a time at worst
    for (let i = 0; i < bytes.length; i += 3) a.push(bytes.subarray(i, i + 3));
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual([{ ...msg, type: 'pong', id: 'p1' }]);
    expect(logged).toContain('agent-host: warming up');
    expect(logged.some((l) => l.includes('not a message'))).toBe(true);
  });

  it('decodes a character whose bytes two frames split, on stdout and stderr alike', async () => {
    const a = attachStream();
    const logged: string[] = [];
    const host = new ContainerHost(a.stream, (l) => logged.push(l));
    const got: unknown[] = [];
    host.open({ ...msg, type: 'ping', id: 'é' }, { onMessage: (m) => got.push(m), onEnd: () => undefined });
    const frameBytes = (kind: 1 | 2, b: Buffer) => Buffer.concat([Buffer.from([kind, 0, 0, 0, 0, 0, 0, b.length]), b]);
    for (const [kind, text] of [[1, `${JSON.stringify({ ...msg, type: 'pong', id: 'é', note: 'Grüße 🎵' })}\n`], [2, 'naïve 🎵\n']] as const) {
      const bytes = Buffer.from(text, 'utf8');
      const cut = bytes.indexOf(0xf0) + 2; // inside the four bytes of the emoji
      a.push(frameBytes(kind, bytes.subarray(0, cut)));
      a.push(frameBytes(kind, bytes.subarray(cut)));
    }
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual([{ ...msg, type: 'pong', id: 'é', note: 'Grüße 🎵' }]);
    expect(logged).toContain('agent-host: naïve 🎵');
  });

  it('when several messages are sent in one turn of the event loop, then they leave in one write (each write wakes the daemon and the shim)', async () => {
    const a = attachStream();
    const host = new ContainerHost(a.stream, () => undefined);
    host.send({ ...msg, type: 'service-head', id: 'c', status: 200, contentType: 'application/json' });
    host.send({ ...msg, type: 'service-chunk', id: 'c', data: '{}' });
    host.send({ ...msg, type: 'service-end', id: 'c' });
    expect(a.written).toEqual([]);
    await turn();
    expect(a.written).toHaveLength(1);
    expect(a.written[0]!.split('\n').filter(Boolean).map((l) => JSON.parse(l).type)).toEqual(['service-head', 'service-chunk', 'service-end']);
    host.send({ ...msg, type: 'ping', id: 'later' });
    await turn();
    expect(a.written).toHaveLength(2);
  });

  it('when the stream ends, everyone waiting hears of it once and nothing more can be sent', async () => {
    const a = attachStream();
    const host = new ContainerHost(a.stream, () => undefined);
    const ends: string[] = [];
    host.open({ ...msg, type: 'ping', id: 'x' }, { onMessage: () => undefined, onEnd: () => ends.push('x') });
    a.end();
    a.stream.resume();
    await host.closed;
    expect(ends).toEqual(['x']);
    expect(host.alive).toBe(false);
    expect(host.send({ ...msg, type: 'ping', id: 'y' })).toBe(false);
  });
});

describe('the program\'s stdio transport', () => {
  it('reads one message per line (blank and non-JSON lines skipped) and writes one per line; the end of stdin closes it', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const t = stdioTransport(input, output);
    const seen: unknown[] = [];
    let closed = false;
    t.onMessage((m) => seen.push(m));
    t.onClose(() => (closed = true));
    input.write('{"a":1}\n\n{"b"');
    input.write(':2}\nnope\n');
    t.send({ c: 3 });
    input.end();
    await expect.poll(() => closed).toBe(true);
    expect(seen).toEqual([{ a: 1 }, { b: 2 }]);
    expect(output.read()!.toString()).toBe('{"c":3}\n');
    expect(closed).toBe(true);
  });

  it('writes the messages of one turn of the event loop (deltas and the reply) in one write', async () => {
    const writes: string[] = [];
    const output = new Writable({
      write(chunk: Buffer, _enc, done) {
        writes.push(chunk.toString());
        done();
      },
      writev(chunks, done) {
        writes.push(chunks.map((c) => (c.chunk as Buffer).toString()).join(''));
        done();
      },
    });
    const t = stdioTransport(new PassThrough(), output);
    t.send({ type: 'delta', content: 'Hel' });
    t.send({ type: 'delta', content: 'lo' });
    t.send({ type: 'reply' });
    await turn();
    expect(writes).toEqual(['{"type":"delta","content":"Hel"}\n{"type":"delta","content":"lo"}\n{"type":"reply"}\n']);
  });

  it('when it relays (the container has no network), then a new stream first tells the program to fail the calls relayed over an earlier one, and the program does', async () => {
    const a = attachStream();
    new ContainerHost(a.stream, () => undefined, { serviceUrl: 'http://127.0.0.1:9', gatewayToken: 'gw_instance' });
    await turn();
    expect(a.written.map((l) => JSON.parse(l))).toEqual([{ ...msg, type: 'service-reset' }]);
    const silent = attachStream();
    new ContainerHost(silent.stream, () => undefined);
    await turn();
    expect(silent.written).toEqual([]);

    const { relayedFetch } = await import('../../../../src/agent-host/agent-host-relayed-fetch.js');
    const sent: unknown[] = [];
    const relay = relayedFetch((m) => sent.push(m));
    const pending = relay.fetch('http://supervisor/api/runtime/chat', { method: 'POST', body: '{}' });
    expect(sent).toMatchObject([{ type: 'service-call', path: '/api/runtime/chat' }]);
    relay.endAll(); // what the program does on service-reset
    await expect(pending).rejects.toThrow(/went away/);
  });
});
