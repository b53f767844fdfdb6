import { inject, injectable } from 'tsyringe';
import { serverOfOfferedName, toolOfOfferedName } from '../../domain/mcp/mcp-server.js';
import { DomainError } from '../../domain/shared/domain-error.js';
import type { UserId } from '../../domain/shared/ids.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { MCP_CLIENT, type McpClient, type McpToolAnswer } from '../ports/mcp-client.port.js';
import type { McpServerRecord } from '../ports/mcp-server-repository.port.js';
import { MCP_SETTINGS, type McpSettings } from '../ports/mcp-settings.port.js';
import type { McpSystemScope } from '../ports/scopes/mcp-scope.port.js';
import { SECRET_BOX, type SecretBox } from '../ports/secret-box.port.js';
import { UNIT_OF_WORK, type SystemStatements, type SystemWork } from '../ports/unit-of-work.port.js';
import { TOOL_REFUSAL } from '../skills/agent-tool.errors.js';
import type { AgentToolCall, AgentToolResult } from '../skills/agent-tool-call.js';
import { openMcpHeaders } from './mcp-headers.js';

/** The codes an MCP tool call reports to the model beside the server failures (MCP_FAILURE). */
export const MCP_TOOL_REFUSAL = {
  /** The tool is the server's, but its allowlist does not name it. */
  notAllowed: 'MCP_TOOL_NOT_ALLOWED',
  /** The tool ran and reported its own failure (`isError`). */
  toolError: 'MCP_TOOL_ERROR',
} as const;

/**
 * An MCP tool the agent's model called (`mcp__<server>__<tool>`, decision 0441), run by the
 * service for the agent's owner (already authenticated by RunAgentTool): the server is the
 * agent's, the tool one its last listing named and its allowlist permits, the arguments a JSON
 * object; then the call, through the service's MCP client with the server's headers opened here
 * (the agent host never sees them), bounded in time by the client and in size here
 * (MCP_RESULT_MAX_CHARS of text, marked when cut). Every outcome is an answer for the model,
 * never a failed chat: a server down, slow or refusing is `{error, code}`. Each call of a known
 * server is an `mcp_call` event: `<server>.<tool>: ok` or `: error (CODE)`, with its duration;
 * never the arguments or the result.
 */
@injectable()
export class CallMcpTool {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemStatements<McpSystemScope, 'agentMcpServers'> & SystemWork<McpSystemScope, 'agentEvents'>,
    @inject(MCP_CLIENT) private readonly client: McpClient,
    @inject(MCP_SETTINGS) private readonly settings: McpSettings,
    @inject(SECRET_BOX) private readonly box: SecretBox,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  async execute(owner: UserId, call: AgentToolCall, signal?: AbortSignal): Promise<AgentToolResult> {
    const serverName = serverOfOfferedName(call.name);
    const servers = serverName ? await this.uow.statementsAsSystem((s) => s.agentMcpServers.listForAgent(call.agentId)) : [];
    const server = servers.find((s) => s.name === serverName);
    if (!server) return { error: `There is no tool named ${call.name}`, code: TOOL_REFUSAL.unknownTool };

    const started = this.clock.now();
    const tool = toolOfOfferedName(server.name, call.name, server.tools, server.allowedTools);
    const toolName = tool?.name ?? call.name;
    const result = tool ? await this.run(owner, server, tool.name, call, signal) : this.unknownTool(server, call.name);
    await this.record(owner, call.agentId, `${server.name}.${toolName}`, result, started);
    return result;
  }

  private unknownTool(server: McpServerRecord, offered: string): AgentToolResult {
    const listed = toolOfOfferedName(server.name, offered, server.tools, null);
    return listed
      ? { error: `The tool ${listed.name} of ${server.name} is not allowed for this agent`, code: MCP_TOOL_REFUSAL.notAllowed }
      : { error: `There is no tool named ${offered}`, code: TOOL_REFUSAL.unknownTool };
  }

  private async run(owner: UserId, server: McpServerRecord, tool: string, call: AgentToolCall, signal?: AbortSignal): Promise<AgentToolResult> {
    const args = parseArguments(call.arguments);
    if (!args) return { error: 'The arguments must be a JSON object', code: TOOL_REFUSAL.invalidArguments };
    try {
      const answer = await this.client.callTool({ url: server.url, headers: openMcpHeaders(this.box, server) }, tool, args, signal);
      return this.bounded(answer);
    } catch (err) {
      if (err instanceof DomainError) return { error: err.message, code: err.code };
      this.log.error({ err, agentId: call.agentId, userId: owner, server: server.name, tool }, 'an MCP tool call crashed');
      return { error: `The tool ${call.name} failed`, code: TOOL_REFUSAL.failed };
    }
  }

  /** The answer for the model within MCP_RESULT_MAX_CHARS: the text cut (and marked), the structured result only when it fits. */
  private bounded(answer: McpToolAnswer): AgentToolResult {
    const max = this.settings.resultMaxChars;
    const text = answer.text.length <= max ? answer.text : `${answer.text.slice(0, max)}… (result cut at ${max} characters)`;
    if (answer.isError) return { error: text || 'The tool reported an error', code: MCP_TOOL_REFUSAL.toolError };
    const structured = answer.structured && JSON.stringify(answer.structured).length + text.length <= max ? { structured: answer.structured } : {};
    return { success: true, content: text, ...structured };
  }

  /** As RunAgentTool's skill_call event (decision 0285): written after the call, its failure logged, never the model's problem. */
  private async record(owner: UserId, agentId: string, tool: string, result: AgentToolResult, started: Date): Promise<void> {
    const outcome = 'success' in result ? 'ok' : `error (${result.code})`;
    const at = this.clock.now();
    const durationMs = Math.max(0, at.getTime() - started.getTime());
    try {
      await this.uow.asSystem((s) => s.agentEvents.append({ agentId, userId: owner, kind: 'mcp_call', durationMs, reason: `${tool}: ${outcome}`.slice(0, 500), at }));
    } catch (err) {
      this.log.error({ err, agentId, userId: owner, tool }, 'an MCP tool call could not be recorded');
    }
  }
}

function parseArguments(json: string): Record<string, unknown> | null {
  try {
    const args: unknown = json.trim() === '' ? {} : JSON.parse(json);
    return typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
