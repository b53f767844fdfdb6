import type { InjectionToken } from 'tsyringe';
import type { McpToolInfo } from '../../domain/mcp/mcp-server.js';
import { DomainError } from '../../domain/shared/domain-error.js';

/** A remote MCP server as the service reaches it: its URL and the headers (in clear) it is called with. */
export interface McpTarget {
  url: string;
  headers: Readonly<Record<string, string>>;
}

/** A tool's answer, reduced to text: `isError` when the tool itself reported a failure. */
export interface McpToolAnswer {
  isError: boolean;
  /** The text parts joined; other parts named (`[image image/png]`). */
  text: string;
  /** The tool's structured result, when it gave one. */
  structured?: Record<string, unknown>;
}

/** Why a server could not be used; the model reads `code` and the message, the owner sees the message as the server's status. */
export const MCP_FAILURE = {
  /** The address (as resolved at connect) is loopback, private or reserved, and private targets are not allowed. */
  refused: 'MCP_TARGET_REFUSED',
  /** The server did not answer within the time allowed. */
  timeout: 'MCP_TIMEOUT',
  /** The server's answer was larger than the service reads. */
  tooLarge: 'MCP_RESULT_TOO_LARGE',
  /** Anything else: unreachable, an HTTP error, a protocol error. */
  unavailable: 'MCP_SERVER_UNAVAILABLE',
} as const;
export type McpFailureCode = (typeof MCP_FAILURE)[keyof typeof MCP_FAILURE];

/** A server could not be used for this operation (never thrown for a tool's own error result). */
export class McpServerFailure extends DomainError {
  constructor(
    readonly failure: McpFailureCode,
    message: string,
  ) {
    super(failure, message);
  }
}

/**
 * The service's MCP client (streamable HTTP). Each operation opens its own session and closes it:
 * no connection is kept between calls, so nothing of one user's session serves another. The
 * adapter checks every address it connects to (as resolved, at connect) against the private-target
 * rule, bounds each operation by its timeout and the bytes it reads, and throws McpServerFailure
 * for every failure; vendor errors never cross this port.
 */
export interface McpClient {
  /** Every tool the server lists (all pages). */
  listTools(target: McpTarget, signal?: AbortSignal): Promise<McpToolInfo[]>;
  /** Calls one tool with these arguments. A tool's own failure is an answer with `isError`. */
  callTool(target: McpTarget, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<McpToolAnswer>;
}
export const MCP_CLIENT: InjectionToken<McpClient> = Symbol('McpClient');
