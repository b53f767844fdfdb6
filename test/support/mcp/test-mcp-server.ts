import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** The bearer token the `/private/mcp` endpoint requires (tests send it as a server header). */
export const PRIVATE_TOKEN = 'Bearer mcp-test-s3cret';

export interface TestMcpServer {
  /** The open endpoint: tools echo, fail, hang, huge, flood. */
  url: string;
  /** The endpoint that answers 401 unless the request carries `authorization: PRIVATE_TOKEN`: tool whoami. */
  privateUrl: string;
  /** The endpoint that keeps sessions (the SDK's stateful form): the open tools. */
  statefulUrl: string;
  /** Sessions of the stateful endpoint open now, and how many clients ended theirs (DELETE). */
  sessions: { open(): number; ended: number };
  /** Every tool call the server ran: tool name, arguments, the authorization header it came with. */
  calls: { tool: string; args: unknown; authorization: string | undefined }[];
  /** Every HTTP request's authorization header, per path. */
  requests: { path: string; authorization: string | undefined }[];
  /** Characters `huge` answers with; bytes `flood` does. */
  sizes: { huge: number; flood: number };
  /** While down, every request answers 503. */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

/**
 * A real MCP server from the official SDK (McpServer over StreamableHTTPServerTransport, stateless:
 * a server and transport per request, as the SDK's stateless example) on a node http server on
 * 127.0.0.1 (`/mcp` answers in server-sent events, `/private/mcp` in JSON), with tools that echo, fail, hang (until the server closes), answer huge text or flood,
 * and an endpoint that requires a header.
 */
export async function startTestMcpServer(sizes = { huge: 100_000, flood: 3_000_000 }): Promise<TestMcpServer> {
  const calls: TestMcpServer['calls'] = [];
  const requests: TestMcpServer['requests'] = [];
  let release: () => void = () => undefined;
  const closed = new Promise<void>((r) => (release = r));
  let down = false;
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const ended = { count: 0 };

  const build = (authorization: string | undefined, privateTools: boolean): McpServer => {
    const server = new McpServer({ name: 'test-mcp', version: '1.0.0' });
    const record = (tool: string, args: unknown) => calls.push({ tool, args, authorization });
    if (privateTools) {
      server.registerTool('whoami', { description: 'Says who is asking.', inputSchema: {} }, async () => {
        record('whoami', {});
        return { content: [{ type: 'text', text: 'you hold the token' }] };
      });
      return server;
    }
    server.registerTool('echo', { description: 'Echoes the text.', inputSchema: { text: z.string() } }, async ({ text }) => {
      record('echo', { text });
      return { content: [{ type: 'text', text: `echo: ${text}` }], structuredContent: { echoed: text } };
    });
    server.registerTool('fail', { description: 'Always fails.', inputSchema: {} }, async () => {
      record('fail', {});
      return { content: [{ type: 'text', text: 'the fail tool failed, as it always does' }], isError: true };
    });
    server.registerTool('hang', { description: 'Never answers.', inputSchema: {} }, async () => {
      record('hang', {});
      await closed;
      return { content: [{ type: 'text', text: 'too late' }] };
    });
    server.registerTool('huge', { description: 'Answers with a lot of text.', inputSchema: {} }, async () => {
      record('huge', {});
      return { content: [{ type: 'text', text: 'x'.repeat(sizes.huge) }] };
    });
    server.registerTool('flood', { description: 'Answers with more bytes than a client should read.', inputSchema: {} }, async () => {
      record('flood', {});
      return { content: [{ type: 'text', text: 'y'.repeat(sizes.flood) }] };
    });
    server.registerTool('dotted.name', { description: 'A name providers refuse as is.', inputSchema: {} }, async () => {
      record('dotted.name', {});
      return { content: [{ type: 'text', text: 'dotted ok' }] };
    });
    return server;
  };

  /** The SDK's stateful pattern: a transport per session, made by the initialize request, ended by DELETE. */
  const stateful = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      if (req.method !== 'POST' || !isInitializeRequest(body)) return void res.writeHead(400).end('{"error":"no session"}');
      const made: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => void sessions.set(sid, made) });
      made.onclose = () => {
        if (made.sessionId) sessions.delete(made.sessionId);
      };
      await build(undefined, false).connect(made);
      transport = made;
    }
    if (req.method === 'DELETE') ended.count++;
    await transport.handleRequest(req, res, body);
  };

  const httpServer = http.createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const authorization = req.headers.authorization;
    requests.push({ path, authorization });
    if (down) return void res.writeHead(503).end();
    const isPrivate = path === '/private/mcp';
    if (path === '/stateful/mcp') return stateful(req, res);
    if (path !== '/mcp' && !isPrivate) return void res.writeHead(404).end();
    if (isPrivate && authorization !== PRIVATE_TOKEN) return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const server = build(authorization, isPrivate);
    // the open endpoint answers as server-sent events (the protocol's streaming form), the private one as plain JSON
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: isPrivate });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    privateUrl: `http://127.0.0.1:${port}/private/mcp`,
    statefulUrl: `http://127.0.0.1:${port}/stateful/mcp`,
    sessions: {
      open: () => sessions.size,
      get ended() {
        return ended.count;
      },
    },
    calls,
    requests,
    sizes,
    setDown: (d) => {
      down = d;
    },
    close: async () => {
      release();
      httpServer.closeAllConnections();
      await new Promise<void>((r) => httpServer.close(() => r()));
    },
  };
}
