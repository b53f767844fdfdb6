import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { StringDecoder } from 'node:string_decoder';

/** A line longer than this is not a message of ours. */
const MAX_LINE = 16 * 2 ** 20;
import type { Writable } from 'node:stream';

/**
 * How the agent-host program talks to its supervisor: the same messages (agent-host-protocol.ts)
 * over either channel.
 * - `ipc`: Node's IPC channel, when ProcessAgentRuntime forked the program.
 * - `stdio`: one JSON message per line, read from stdin and written to stdout, for a container
 *   the docker runtime attaches to (AGENT_HOST_TRANSPORT=stdio). Logs go to stderr only, so
 *   stdout carries nothing but messages.
 */
export interface HostTransport {
  send(m: object): void;
  onMessage(handler: (raw: unknown) => void): void;
  /** The supervisor went away (IPC disconnected, stdin ended): the program should end. */
  onClose(handler: () => void): void;
}

export function ipcTransport(): HostTransport {
  return {
    // the channel may already be gone (the supervisor died); the close handler exits
    send: (m) => {
      if (process.connected) process.send?.(m, undefined, undefined, () => undefined);
    },
    onMessage: (handler) => void process.on('message', handler),
    onClose: (handler) => void process.on('disconnect', handler),
  };
}

export function stdioTransport(input: NodeJS.ReadableStream = process.stdin, output: Writable = process.stdout): HostTransport {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let corked = false;
  return {
    // messages of one turn of the event loop (an answer's deltas and its reply) leave in one write:
    // each write wakes the container's shim and the daemon before the supervisor reads it
    send: (m) => {
      if (!corked) {
        corked = true;
        output.cork();
        setImmediate(() => {
          corked = false;
          output.uncork();
        });
      }
      output.write(`${JSON.stringify(m)}\n`);
    },
    onMessage: (handler) =>
      void lines.on('line', (line) => {
        if (line.trim() === '') return;
        let raw: unknown;
        try {
          raw = JSON.parse(line);
        } catch {
          process.stderr.write('agent-host: a line on stdin is not JSON; ignored\n');
          return;
        }
        handler(raw);
      }),
    onClose: (handler) => void lines.on('close', handler),
  };
}

/** Where and as whom a program that connects in (AGENT_HOST_TRANSPORT=connect) dials its supervisor. */
export interface ConnectSettings {
  /** `http(s)://host:port/agent-host/connect`: the supervisor's connect-in listener. */
  url: string;
  userId: string;
  /** The epoch this program runs in: its Swarm task's id. */
  task: string;
  /** The generation's connect secret (a Swarm secret file): proves the program was started by this generation. */
  secret: string;
  /** The header a refusal is retried after; a refusal as stale (403) ends the program. */
  retryMs?: number;
  /** No message from the supervisor for this long (it pings every few seconds): the connection is dead, dial again. */
  silenceMs?: number;
}

/** The HTTP upgrade token of the connect-in transport: JSON lines both ways on the upgraded connection. */
export const CONNECT_UPGRADE = 'agent-host-lines';
/** The supervisor's path for it. */
export const CONNECT_PATH = '/agent-host/connect';

/**
 * `connect`: the program dials its supervisor (a program on another machine of a swarm cannot be
 * attached to): one HTTP/1.1 request, `GET {url}` with `Upgrade: agent-host-lines`, the connect
 * secret as a Bearer token and the user and task (the epoch) in headers; answered `101`, the
 * connection then carries one JSON message per line each way, as stdio does. A dropped connection
 * is dialled again every `retryMs` (onDrop tells the program, which abandons what it was doing: the
 * supervisor delivers it again); a refusal as stale (403: a newer epoch runs elsewhere) is final,
 * and onClose ends the program.
 */
export function connectTransport(s: ConnectSettings): HostTransport & { onDrop(handler: () => void): void } {
  const retryMs = s.retryMs ?? 1_000;
  const silenceMs = s.silenceMs ?? 15_000;
  let socket: Socket | null = null;
  let onMessage: (raw: unknown) => void = () => undefined;
  const closeHandlers: (() => void)[] = [];
  const dropHandlers: (() => void)[] = [];
  let ended = false;
  let corked = false;

  const dial = () => {
    if (ended) return;
    const url = new URL(s.url);
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'GET',
      headers: { connection: 'Upgrade', upgrade: CONNECT_UPGRADE, authorization: `Bearer ${s.secret}`, 'x-agent-host-user': s.userId, 'x-agent-host-task': s.task },
      timeout: silenceMs,
    });
    let retrying = false;
    const again = () => {
      if (ended || retrying) return;
      retrying = true;
      setTimeout(dial, retryMs);
    };
    req.on('upgrade', (_res, sock, head) => {
      socket = sock;
      sock.setTimeout(0);
      sock.setNoDelay(true);
      const silence = setTimeout(() => sock.destroy(), silenceMs);
      const decoder = new StringDecoder('utf8');
      let pending = '';
      const receive = (chunk: Buffer) => {
        silence.refresh();
        pending += decoder.write(chunk);
        let nl: number;
        while ((nl = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          if (line.trim() === '') continue;
          let raw: unknown;
          try {
            raw = JSON.parse(line);
          } catch {
            process.stderr.write('agent-host: a line from the supervisor is not JSON; ignored\n');
            continue;
          }
          onMessage(raw);
        }
        if (pending.length > MAX_LINE) sock.destroy();
      };
      // what came with the 101 first, then the rest as it arrives
      if (head.length > 0) receive(head);
      sock.on('data', receive);
      sock.on('error', () => sock.destroy());
      sock.once('close', () => {
        clearTimeout(silence);
        if (socket === sock) socket = null;
        for (const h of dropHandlers) h();
        again();
      });
    });
    req.on('response', (res) => {
      res.resume();
      if (res.statusCode === 403) {
        // a newer epoch of this instance runs: this copy must not act again
        process.stderr.write('agent-host: refused as stale by the supervisor; ending\n');
        ended = true;
        for (const h of closeHandlers) h();
        return;
      }
      again();
    });
    req.on('timeout', () => req.destroy());
    req.on('error', again);
    req.end();
  };
  setImmediate(dial);

  return {
    send: (m) => {
      const sock = socket;
      if (!sock || sock.destroyed) return;
      if (!corked) {
        corked = true;
        sock.cork();
        setImmediate(() => {
          corked = false;
          sock.uncork();
        });
      }
      sock.write(`${JSON.stringify(m)}\n`);
    },
    onMessage: (handler) => void (onMessage = handler),
    onClose: (handler) => void closeHandlers.push(handler),
    onDrop: (handler) => void dropHandlers.push(handler),
  };
}
