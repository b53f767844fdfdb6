import { createInterface } from 'node:readline';
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
