import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { CONNECT_PATH, CONNECT_UPGRADE } from '../../../../agent-host/agent-host-transport.js';

/** Who dials in: the instance's user, the epoch (the Swarm task) and the generation's connect secret. */
export interface ConnectRequest {
  userId: string;
  task: string;
  secret: string;
}

/** The supervisor's word on a connection: taken (the socket is handed over), or refused with a status. */
export type Admission =
  | { ok: true; take: (socket: Socket, head: Buffer) => void }
  /** 401 no or wrong secret shape, 403 stale (an older generation or a task Swarm no longer wants: final), 404 not in this worker's care, 503 try again. */
  | { ok: false; status: 401 | 403 | 404 | 503; code: string };

const REASONS: Record<number, string> = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 503: 'Service Unavailable', 426: 'Upgrade Required' };
const SAFE = /^[A-Za-z0-9._-]{1,200}$/;

/**
 * The connect-in listener of the swarm runtime, in the worker that supervises the instances: plain
 * HTTP/1.1 on its own port (AGENT_SWARM_CONNECT_LISTEN), one path (`/agent-host/connect`), and only
 * `Upgrade: agent-host-lines` requests on it (anything else is 426 or 404). A request is answered
 * `101` and its socket handed to the runtime only when `admit` takes it; else a status and
 * `{code}` (the program dials again later, except after 403). What arrived with the request
 * (`head`) is handed over with the socket, read before the rest (never pushed back onto it). No body is read, nothing is parsed
 * but three headers, each of a bounded, plain shape.
 */
export class ConnectListener {
  private readonly server: Server;
  /** Every socket that asked to upgrade, until it closes: the server no longer tracks them. */
  private readonly sockets = new Set<Socket>();

  constructor(
    admit: (r: ConnectRequest) => Promise<Admission>,
    private readonly log: (line: string) => void,
  ) {
    this.server = createServer((_req, res) => {
      res.writeHead(426, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify({ code: 'UPGRADE_REQUIRED' }));
    });
    this.server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
      socket.on('error', () => socket.destroy());
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      const refuse = (status: number, code: string) => {
        const body = JSON.stringify({ code });
        socket.end(`HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      };
      if (new URL(req.url ?? '/', 'http://x').pathname !== CONNECT_PATH) return refuse(404, 'NOT_FOUND');
      if ((req.headers.upgrade ?? '').toLowerCase() !== CONNECT_UPGRADE) return refuse(426, 'UPGRADE_REQUIRED');
      const auth = req.headers.authorization ?? '';
      const secret = auth.startsWith('Bearer ') ? auth.slice(7).trim() : '';
      const userId = String(req.headers['x-agent-host-user'] ?? '');
      const task = String(req.headers['x-agent-host-task'] ?? '');
      if (!SAFE.test(secret) || !SAFE.test(userId) || !SAFE.test(task)) return refuse(401, 'CONNECT_REFUSED');
      admit({ userId, task, secret }).then(
        (a) => {
          if (socket.destroyed) return;
          if (!a.ok) return refuse(a.status, a.code);
          socket.write(`HTTP/1.1 101 Switching Protocols\r\nconnection: Upgrade\r\nupgrade: ${CONNECT_UPGRADE}\r\n\r\n`);
          a.take(socket, head);
        },
        (err: unknown) => {
          this.log(`swarm: a connection could not be admitted: ${(err as Error).message}`);
          refuse(503, 'TRY_AGAIN');
        },
      );
    });
  }

  /** Listens on `host:port` (port 0: the system's pick); resolves with where. */
  listen(host: string, port: number): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve(this.server.address() as AddressInfo));
    });
  }

  /** Stops listening and ends every connection, the upgraded ones included. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.server.closeAllConnections();
    if (this.server.listening) await new Promise((resolve) => this.server.close(resolve));
  }
}
