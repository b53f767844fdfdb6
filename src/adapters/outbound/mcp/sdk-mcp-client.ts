import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MCP_FAILURE, McpServerFailure, type McpClient, type McpTarget, type McpToolAnswer } from '../../../application/ports/mcp-client.port.js';
import { MCP_TOOL_NAME_MAX, type McpToolInfo } from '../../../domain/mcp/mcp-server.js';
import { guardedFetch, type GuardState } from './guarded-fetch.js';

export interface SdkMcpClientOptions {
  /** Loopback and private addresses may be reached (MCP_ALLOW_PRIVATE_TARGETS). */
  allowPrivate: boolean;
  /** One operation, session opening included (MCP_CALL_TIMEOUT_MS). */
  timeoutMs: number;
  /** The most bytes read from one HTTP answer (MCP_RESPONSE_MAX_BYTES). */
  maxResponseBytes: number;
}

/** At most this many pages of tools, and tools, are read from one server. */
const MAX_PAGES = 10;
const MAX_TOOLS = 200;
const DESCRIPTION_MAX = 1_000;
/**
 * The SDK, loaded at the first MCP operation: it costs a few hundred milliseconds to import, which
 * a process whose agents use no MCP server never pays (start-up is measured).
 */
type Sdk = typeof import('@modelcontextprotocol/sdk/client/index.js') & typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js') & Pick<typeof import('@modelcontextprotocol/sdk/types.js'), 'ErrorCode' | 'McpError'>;
let sdk: Promise<Sdk> | undefined;
const loadSdk = (): Promise<Sdk> =>
  (sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([client, transport, types]) => ({ ...client, ...transport, ErrorCode: types.ErrorCode, McpError: types.McpError })));

const NO_RECONNECT = { maxRetries: 0, initialReconnectionDelay: 1_000, maxReconnectionDelay: 1_000, reconnectionDelayGrowFactor: 1 };

/**
 * The MCP client over the official SDK (`Client` with `StreamableHTTPClientTransport`): one
 * session per operation, opened before it and ended after it (the server told, for one that keeps
 * sessions), its HTTP through guardedFetch (the
 * outbound-address rule at connect, the byte bound). The whole operation, session opening
 * included, is bounded by `timeoutMs`; every failure becomes McpServerFailure.
 */
export class SdkMcpClient implements McpClient {
  constructor(private readonly o: SdkMcpClientOptions) {}

  listTools(target: McpTarget, signal?: AbortSignal): Promise<McpToolInfo[]> {
    return this.session(target, signal, async (client, options) => {
      const tools: McpToolInfo[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES && tools.length < MAX_TOOLS; page++) {
        const listed = await client.listTools(cursor ? { cursor } : undefined, options);
        for (const t of listed.tools) {
          if (tools.length >= MAX_TOOLS || t.name.length > MCP_TOOL_NAME_MAX) continue;
          tools.push({ name: t.name, description: (t.description ?? t.title ?? '').slice(0, DESCRIPTION_MAX), inputSchema: t.inputSchema as Record<string, unknown> });
        }
        cursor = listed.nextCursor;
        if (!cursor) break;
      }
      return tools;
    });
  }

  callTool(target: McpTarget, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<McpToolAnswer> {
    return this.session(target, signal, async (client, options) => {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, options);
      const parts = Array.isArray(result.content) ? (result.content as { type: string; text?: string; mimeType?: string; resource?: { text?: string; uri?: string } }[]) : [];
      const text = parts
        .map((p) => (p.type === 'text' ? (p.text ?? '') : p.type === 'resource' && typeof p.resource?.text === 'string' ? p.resource.text : `[${p.type}${p.mimeType ? ` ${p.mimeType}` : ''}]`))
        .join('\n');
      const structured = result.structuredContent && typeof result.structuredContent === 'object' ? (result.structuredContent as Record<string, unknown>) : undefined;
      return { isError: result.isError === true, text, ...(structured ? { structured } : {}) };
    });
  }

  private async session<T>(target: McpTarget, signal: AbortSignal | undefined, work: (client: Client, options: { signal: AbortSignal; timeout: number }) => Promise<T>): Promise<T> {
    const { Client, StreamableHTTPClientTransport, ...errors } = await loadSdk();
    const state: GuardState = { refused: null, tooLarge: false };
    const deadline = AbortSignal.timeout(this.o.timeoutMs);
    const aborted = signal ? AbortSignal.any([deadline, signal]) : deadline;
    const transport = new StreamableHTTPClientTransport(new URL(target.url), {
      fetch: guardedFetch({ allowPrivate: this.o.allowPrivate, maxResponseBytes: this.o.maxResponseBytes }, state),
      requestInit: { headers: { ...target.headers } },
      reconnectionOptions: NO_RECONNECT,
    });
    const client = new Client({ name: 'agent-host-service', version: '1.0.0' }, { capabilities: {} });
    const options = { signal: aborted, timeout: this.o.timeoutMs };
    let ended = false;
    try {
      await untilAborted(client.connect(transport, options), aborted);
      const result = await untilAborted(work(client, options), aborted);
      ended = true;
      // not awaited: the caller's answer does not wait for the session's end
      void end(client, () => transport.terminateSession(), aborted);
      return result;
    } catch (err) {
      throw this.failure(err, state, deadline, errors);
    } finally {
      // a failed operation's session is not ended politely: closing aborts its requests
      if (!ended) client.close().catch(() => undefined);
    }
  }

  private failure(err: unknown, state: GuardState, deadline: AbortSignal, { ErrorCode, McpError, StreamableHTTPError }: Pick<Sdk, 'ErrorCode' | 'McpError' | 'StreamableHTTPError'>): McpServerFailure {
    if (state.refused) return new McpServerFailure(MCP_FAILURE.refused, `The MCP server's address is not allowed: ${state.refused}`);
    if (state.tooLarge) return new McpServerFailure(MCP_FAILURE.tooLarge, `The MCP server's answer was larger than ${this.o.maxResponseBytes} bytes`);
    if (deadline.aborted || (err instanceof McpError && err.code === ErrorCode.RequestTimeout)) {
      return new McpServerFailure(MCP_FAILURE.timeout, `The MCP server did not answer within ${this.o.timeoutMs} ms`);
    }
    return new McpServerFailure(MCP_FAILURE.unavailable, `The MCP server could not be used: ${describe(err, StreamableHTTPError)}`);
  }
}

/**
 * Ends a session that did its work: the server is told (DELETE, for a server that keeps sessions;
 * a stateless one has none to end), within what is left of the operation's time, then the client
 * closes whatever it still has open (the server's event stream).
 */
async function end(client: Client, terminate: () => Promise<void>, signal: AbortSignal): Promise<void> {
  try {
    await untilAborted(terminate(), signal);
  } catch {
    // the server could not be told: its session expires on its side
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** The work's outcome, or a rejection as soon as `signal` aborts (whatever the work does meanwhile). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A short, safe description of a failure: the HTTP status or the network error's code, never a stack. */
function describe(err: unknown, StreamableHTTPError: Sdk['StreamableHTTPError']): string {
  if (err instanceof StreamableHTTPError && err.code !== undefined) return `HTTP ${err.code}`;
  const code = (err as { cause?: { code?: unknown }; code?: unknown }).cause?.code ?? (err as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/\s+/g, ' ').slice(0, 200);
}
