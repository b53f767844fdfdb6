import type { Duplex } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { msg, readMessage, type HostMessage, type SupervisorMessage } from '../../../../agent-host/agent-host-protocol.js';
import { AwaitedAnswers, type HostChannel, type PendingAnswer } from '../agent-host-delivery.js';
import { HostCallRelay } from '../host-call-relay.js';
import { HttpHostCalls } from '../http-host-calls.js';

const HEADER = 8;
const STDOUT = 1;
const STDERR = 2;
/** A line longer than this is not a message of ours: the stream is closed rather than buffered without end. */
const MAX_LINE = 16 * 2 ** 20;

/**
 * The agent-host program in a container, through the Engine API's attach stream (Tty off): what
 * we write is the program's stdin, raw; what comes back is its stdout and stderr multiplexed in
 * frames of an 8-byte header (stream, 0, 0, 0, big-endian size) and a payload. Stdout carries one
 * JSON message per line (the program's stdio transport); stderr lines go to the log. The same
 * request/answer correlation as the forked program's IPC (HostChannel). With `relayTo` (the
 * container has no network) the program's calls to the service arrive here too and are relayed
 * (HostCallRelay) to the service's door over HTTP, as the instance whose gateway token it names.
 */
export class ContainerHost implements HostChannel {
  readonly closed: Promise<void>;
  private readonly answers = new AwaitedAnswers();
  private frames: Buffer = Buffer.alloc(0);
  private readonly lines: Record<number, string> = { [STDOUT]: '', [STDERR]: '' };
  // per stream: a character whose bytes a frame boundary splits is decoded whole, from the next frame
  private readonly decoders: Record<number, StringDecoder> = { [STDOUT]: new StringDecoder('utf8'), [STDERR]: new StringDecoder('utf8') };
  private open_ = true;
  private corked = false;
  private readonly relay: HostCallRelay | null;

  constructor(
    private readonly stream: Duplex,
    private readonly log: (line: string) => void,
    relayTo: { serviceUrl: string; gatewayToken: string } | null = null,
  ) {
    if (relayTo === null) this.relay = null;
    else {
      const calls = new HttpHostCalls(relayTo.serviceUrl);
      this.relay = new HostCallRelay({ calls: () => calls, gatewayToken: relayTo.gatewayToken, send: (m) => this.send(m), reply: (id, r) => this.answers.replyWith(id, r), log });
    }
    this.closed = new Promise((resolve) => {
      const end = () => {
        if (!this.open_) return;
        this.open_ = false;
        stream.destroy(); // the daemon ended its side (the container stopped): nothing more can travel
        this.relay?.endAll();
        this.answers.endAll();
        resolve();
      };
      stream.on('close', end);
      stream.on('end', end);
      stream.on('error', (err) => {
        log(`container stream: ${err.message}`);
        end();
      });
    });
    stream.on('data', (chunk: Buffer) => this.receive(chunk));
    // a new stream: calls the program relayed over an earlier one are lost with it, so they fail now
    if (this.relay) this.send({ ...msg, type: 'service-reset' });
  }

  get alive(): boolean {
    return this.open_;
  }

  /**
   * Messages sent in one turn of the event loop leave in one write (a relayed answer's head, body
   * and end, usually): every write crosses the daemon and the container's shim, each a wake-up of
   * two more processes, so fewer writes are the larger part of a message's cost on this path.
   */
  send(m: SupervisorMessage): boolean {
    if (!this.open_) return false;
    if (!this.corked) {
      this.corked = true;
      this.stream.cork();
      setImmediate(() => {
        this.corked = false;
        this.stream.uncork();
      });
    }
    this.stream.write(`${JSON.stringify(m)}\n`);
    return true;
  }

  open(m: SupervisorMessage & { id: string }, waiting: PendingAnswer): boolean {
    return this.answers.open(m, waiting, (x) => this.send(x));
  }

  forget(id: string): void {
    this.answers.forget(id);
  }

  /** Detaches: the container keeps running (its stdin stays open for the next attach). */
  close(): void {
    this.stream.destroy();
  }

  private receive(chunk: Buffer): void {
    this.frames = this.frames.length === 0 ? chunk : Buffer.concat([this.frames, chunk]);
    while (this.frames.length >= HEADER) {
      const size = this.frames.readUInt32BE(4);
      if (this.frames.length < HEADER + size) return;
      const kind = this.frames[0]!;
      const payload = this.frames.subarray(HEADER, HEADER + size);
      this.frames = this.frames.subarray(HEADER + size);
      if (kind === STDOUT || kind === STDERR) this.text(kind, this.decoders[kind]!.write(payload));
    }
  }

  private text(kind: number, payload: string): void {
    const parts = (this.lines[kind] + payload).split('\n');
    this.lines[kind] = parts.pop()!;
    if (this.lines[kind]!.length > MAX_LINE) {
      this.log('container stream: a line without end; detaching');
      this.close();
      return;
    }
    for (const line of parts) {
      if (kind === STDERR) this.log(`agent-host: ${line}`);
      else this.message(line);
    }
  }

  private message(line: string): void {
    if (line.trim() === '') return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      this.log('container stream: a stdout line is not a message; ignored');
      return;
    }
    const m = readMessage<HostMessage>(raw);
    if (m?.type === 'service-call' || m?.type === 'service-abort') this.relay?.handle(m);
    else this.answers.route(raw);
  }
}
