import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cleanUpLater } from '../cleanup.js';

/** Decides, per JSON-RPC method called, whether the node drops that request (true) as if it failed mid-way. */
export type RpcFault = (method: string) => boolean;
/** Per JSON-RPC method called, a promise the node waits on before it answers (null: answer now). */
export type RpcHold = (method: string) => Promise<unknown> | null;

/**
 * An RPC node that can be taken down and brought back: a pass-through to `target` that, while
 * down, drops every connection as an unreachable node would; while hanging, answers nothing. The chain behind it keeps its state.
 * `setFault` drops only the requests a rule picks (a broadcast, a receipt read), the rest passing through.
 */
export async function startRpcSwitch(
  target: string,
): Promise<{
  url: string;
  setUp(up: boolean): void;
  setHanging(hanging: boolean): void;
  setFault(fault: RpcFault | null): void;
  /** Holds the requests a rule picks until its promise settles: a caller paused at a chosen call. */
  setHold(hold: RpcHold | null): void;
  /** Every answer this much later: a node far away, which widens the gaps between a caller's calls. */
  setDelayMs(ms: number): void;
  close(): Promise<void>;
}> {
  let up = true;
  let hanging = false;
  let fault: RpcFault | null = null;
  let delayMs = 0;
  let hold: RpcHold | null = null;
  const server = http.createServer(async (req, res) => {
    if (!up) {
      req.socket.destroy();
      return;
    }
    // a node that accepts the request and never answers: only the caller's timeout ends it
    if (hanging) return;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (fault && methodsOf(Buffer.concat(chunks)).some((m) => fault!(m))) {
      req.socket.destroy();
      return;
    }
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    const held = hold ? methodsOf(Buffer.concat(chunks)).map((m) => hold!(m)) : [];
    await Promise.allSettled(held);
    try {
      const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      req.socket.destroy();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  cleanUpLater(close);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setHanging(value) {
      hanging = value;
      if (!value) server.closeAllConnections();
    },
    setFault(value) {
      fault = value;
    },
    setHold(value) {
      hold = value;
    },
    setDelayMs(value) {
      delayMs = value;
    },
    setUp(value) {
      up = value;
      if (!value) server.closeAllConnections();
    },
    close,
  };
}

function methodsOf(body: Buffer): string[] {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { method?: string } | { method?: string }[];
    return (Array.isArray(parsed) ? parsed : [parsed]).map((c) => String(c.method));
  } catch {
    return [];
  }
}
