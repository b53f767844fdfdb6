import type { Socket } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import type { HostCalls } from '../../../../application/ports/host-calls.port.js';
import { msg, readMessage, type HostMessage, type SupervisorMessage } from '../../../../agent-host/agent-host-protocol.js';
import { AwaitedAnswers, type HostChannel, type PendingAnswer } from '../agent-host-delivery.js';
import { HostCallRelay } from '../host-call-relay.js';

/** A line longer than this is not a message of ours: the connection is closed rather than buffered without end. */
const MAX_LINE = 16 * 2 ** 20;

/**
 * An agent-host program that connected in (AGENT_HOST_TRANSPORT=connect), as its supervisor talks
 * to it: one JSON message per line each way on the upgraded connection, the same request/answer
 * correlation as the other channels (HostChannel). It belongs to one epoch (`task`, the Swarm task
 * the program runs as); the program's calls to the service arrive on it and are relayed
 * (HostCallRelay) to the service's door with the instance's gateway token, which the program never
 * holds: a copy of the program from an older epoch, refused a connection, can spend nothing.
 */
export class ConnectedHost implements HostChannel {
  readonly closed: Promise<void>;
  private readonly answers = new AwaitedAnswers();
  private readonly decoder = new StringDecoder('utf8');
  private line = '';
  private open_ = true;
  private corked = false;
  private readonly relay: HostCallRelay;

  constructor(
    private readonly socket: Socket,
    /** The epoch: the Swarm task id the program presented, checked current when it connected. */
    readonly task: string,
    o: { calls: () => HostCalls; gatewayToken: string; log: (line: string) => void },
    /** What arrived with the upgrade request, before the socket is read. */
    head: Buffer = Buffer.alloc(0),
  ) {
    this.relay = new HostCallRelay({ calls: o.calls, gatewayToken: o.gatewayToken, send: (m) => this.send(m), reply: (id, r) => this.answers.replyWith(id, r), log: o.log });
    this.closed = new Promise((resolve) => {
      const end = () => {
        if (!this.open_) return;
        this.open_ = false;
        socket.destroy();
        this.relay.endAll(); // the calls of a connection that ended are aborted: their reservations released
        this.answers.endAll();
        resolve();
      };
      socket.on('close', end);
      socket.on('end', end);
      socket.on('error', (err) => {
        o.log(`connected host (task ${task}): ${err.message}`);
        end();
      });
    });
    socket.setNoDelay(true);
    if (head.length > 0) this.receive(head);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
  }

  get alive(): boolean {
    return this.open_;
  }

  /** Messages sent in one turn of the event loop leave in one write. */
  send(m: SupervisorMessage): boolean {
    if (!this.open_) return false;
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      setImmediate(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.socket.write(`${JSON.stringify(m)}\n`);
    return true;
  }

  open(m: SupervisorMessage & { id: string }, waiting: PendingAnswer): boolean {
    return this.answers.open(m, waiting, (x) => this.send(x));
  }

  forget(id: string): void {
    this.answers.forget(id);
  }

  /** Ends the connection: whatever waits on it hears the end; the program dials again (or is refused). */
  close(): void {
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    this.line += this.decoder.write(chunk);
    let nl: number;
    while ((nl = this.line.indexOf('\n')) >= 0) {
      const text = this.line.slice(0, nl);
      this.line = this.line.slice(nl + 1);
      if (text.trim() !== '') this.message(text);
    }
    if (this.line.length > MAX_LINE) this.close();
  }

  private message(text: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return;
    }
    const m = readMessage<HostMessage>(raw);
    if (!m) return;
    if (this.relay.handle(m)) return;
    this.answers.route(m);
  }
}

export const INIT_WITHOUT_TOKEN: SupervisorMessage = { ...msg, type: 'init', gatewayToken: '' };
