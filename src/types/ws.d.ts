/**
 * The part of `ws` (8.x) the agent websocket uses. The package is in node_modules (a dependency
 * of viem) but ships no types and @types/ws is not installed; this declares only what is used.
 */
declare module 'ws' {
  import { EventEmitter } from 'node:events';
  import type { IncomingMessage } from 'node:http';
  import type { Duplex } from 'node:stream';

  export class WebSocket extends EventEmitter {
    static readonly OPEN: 1;
    constructor(address: string, options?: { headers?: Record<string, string> });
    readonly readyState: number;
    send(data: string, cb?: (err?: Error) => void): void;
    close(code?: number, reason?: string): void;
    terminate(): void;
  }

  export class WebSocketServer extends EventEmitter {
    constructor(options: { noServer: true; maxPayload?: number });
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, cb: (ws: WebSocket) => void): void;
    close(cb?: () => void): void;
  }
}
