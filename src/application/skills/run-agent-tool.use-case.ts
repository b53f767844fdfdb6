import { inject, injectable } from 'tsyringe';
import type { SkillCapability } from '../../domain/skills/skill-capability.js';
import { DomainError } from '../../domain/shared/domain-error.js';
import type { UserId } from '../../domain/shared/ids.js';
import { GatewayTokenInvalidError } from '../agents/runtime.errors.js';
import { NotFoundError } from '../errors.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { TOOL_SCHEMAS, type ToolSchemas } from '../ports/tool-schema.port.js';
import { UNIT_OF_WORK, type SystemWork, type UserWork } from '../ports/unit-of-work.port.js';
import type { SkillsSystemScope, SkillsUserScope } from '../ports/scopes/skills-scope.port.js';
import { sha256 } from '../shared/secret-tokens.js';
import { TOOL_REFUSAL } from './agent-tool.errors.js';
import { splitToolName } from './skills-as-agent-tools.js';
import type { SkillCallContext, SkillHandler } from './skill-handler.js';
import { SKILL_HANDLERS } from '../ports/skill-handlers.port.js';
import { SkillCapabilityDeniedError } from './skill.errors.js';
import type { AgentToolCall, AgentToolResult } from './agent-tool-call.js';
import { isOfferedMcpName } from '../../domain/mcp/mcp-server.js';
import { CallMcpTool } from '../mcp/call-mcp-tool.use-case.js';

export type { AgentToolCall, AgentToolResult } from './agent-tool-call.js';

const refusal = (code: string, error: string): AgentToolResult => ({ error, code });

/**
 * The service side of an agent's tool call (`POST /api/runtime/tools`). Authenticated like the
 * runtime's chat call: the instance's gateway token only (401), the agent must be that instance
 * owner's (404). Then, in order, any failure being a refusal for the model and the handler never
 * run: the skill is a known handler's and the action one of its actions; it is installed on the
 * agent and enabled (read as the owner, under RLS); every capability the action declares is one
 * the skill's manifest declares; the arguments parse with the action's zod schema. The handler
 * runs for the OWNER (`via: 'tool'`), and may use a capability only when both the manifest and
 * the action declare it. Its DomainError is a refusal with its code; a crash is TOOL_FAILED, logged.
 * A name starting `mcp__` is an MCP server's tool instead, called by CallMcpTool.
 */
@injectable()
export class RunAgentTool {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<SkillsSystemScope, 'instances' | 'agents' | 'agentEvents'> & UserWork<SkillsUserScope, 'skillInstalls'>,
    @inject(SKILL_HANDLERS) private readonly handlers: readonly SkillHandler[],
    @inject(LOGGER) private readonly log: Logger,
    @inject(TOOL_SCHEMAS) private readonly schemas: ToolSchemas,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(CallMcpTool) private readonly mcpTools: CallMcpTool,
  ) {}

  async execute(gatewayToken: string | undefined, call: AgentToolCall, signal?: AbortSignal): Promise<AgentToolResult> {
    const owner = await this.ownerOf(gatewayToken, call.agentId);
    // an agent's MCP server's tool (`mcp__<server>__<tool>`): called through the service (decision 0441)
    if (isOfferedMcpName(call.name)) return this.mcpTools.execute(owner, call, signal);

    const parts = splitToolName(call.name);
    const handler = parts && this.handlers.find((h) => h.slug === parts.slug);
    const action = parts && handler?.actions.find((a) => a.name === parts.action);
    if (!parts || !handler || !action) return refusal(TOOL_REFUSAL.unknownTool, `There is no tool named ${call.name}`);

    const started = this.clock.now();
    const result = await this.run(owner, call, handler, action, signal);
    await this.record(owner, call.agentId, `${handler.slug}.${action.name}`, result, started);
    return result;
  }

  private async run(owner: UserId, call: AgentToolCall, handler: SkillHandler, action: SkillHandler['actions'][number], signal?: AbortSignal): Promise<AgentToolResult> {
    const installs = await this.uow.asUser(owner, (s) => s.skillInstalls.listForAgent(call.agentId));
    const install = installs.find((i) => i.skillId === handler.slug);
    if (!install) return refusal(TOOL_REFUSAL.notInstalled, `The skill ${handler.slug} is not installed on this agent`);
    if (!install.enabled) return refusal(TOOL_REFUSAL.disabled, `The skill ${handler.slug} is disabled on this agent`);

    const undeclared = action.capabilities.find((c) => !handler.capabilities.includes(c));
    if (undeclared) return refused(new SkillCapabilityDeniedError(handler.slug, undeclared));

    const input = this.parse(action, call.arguments);
    if (!input.ok) return refusal(TOOL_REFUSAL.invalidArguments, input.error);

    const ctx: SkillCallContext = {
      userId: owner,
      agentId: call.agentId,
      via: 'tool',
      requireCapability: (c: SkillCapability) => {
        if (!handler.capabilities.includes(c) || !action.capabilities.includes(c)) throw new SkillCapabilityDeniedError(handler.slug, c);
      },
      ...(signal ? { signal } : {}),
    };
    try {
      const body = await action.run(ctx, input.value);
      return { ...body, success: true };
    } catch (err) {
      if (err instanceof DomainError) return refused(err);
      this.log.error({ err, agentId: call.agentId, userId: owner, tool: call.name }, 'an agent tool crashed');
      return refusal(TOOL_REFUSAL.failed, `The tool ${call.name} failed`);
    }
  }

  /**
   * The call as the agent's `skill_call` event: the skill, the action and the outcome, never the
   * arguments or the result (they may hold secrets): `<skill>.<action>: ok` or `<skill>.<action>:
   * refused (CODE)`, with the call's time. Written right after the call, not in its
   * transaction (a handler owns its own transactions); a failure to write it is logged and the
   * model still gets its result, since the call's effects have already happened.
   */
  private async record(owner: UserId, agentId: string, tool: string, result: AgentToolResult, started: Date): Promise<void> {
    const outcome = 'success' in result ? 'ok' : `refused (${result.code})`;
    const at = this.clock.now();
    const durationMs = Math.max(0, at.getTime() - started.getTime());
    try {
      await this.uow.asSystem((s) => s.agentEvents.append({ agentId, userId: owner, kind: 'skill_call', durationMs, reason: `${tool}: ${outcome}`, at }));
    } catch (err) {
      this.log.error({ err, agentId, userId: owner, tool }, 'a skill call could not be recorded');
    }
  }

  /** The owner of the agent when the token is its instance's; 401 for an unknown token, 404 for another user's agent. */
  private async ownerOf(gatewayToken: string | undefined, agentId: string): Promise<UserId> {
    if (!gatewayToken) throw new GatewayTokenInvalidError(true);
    const hash = sha256(gatewayToken);
    const found = await this.uow.asSystem(async (s) => {
      const userId = await s.instances.ownerOfToken(hash);
      return userId ? { userId, agent: await s.agents.get(agentId) } : null;
    });
    if (!found) throw new GatewayTokenInvalidError(false);
    if (!found.agent || found.agent.userId !== found.userId) throw new NotFoundError('Agent');
    return found.userId;
  }

  private parse(action: SkillHandler['actions'][number], json: string): { ok: true; value: unknown } | { ok: false; error: string } {
    let args: unknown;
    try {
      args = json.trim() === '' ? {} : JSON.parse(json);
    } catch {
      return { ok: false, error: 'The arguments are not valid JSON' };
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return { ok: false, error: 'The arguments must be a JSON object' };
    // the tool's name chose the action; the schema still wants it in the input
    const input = this.schemas.parametersOf(action).selectsByAction ? { ...args, action: action.name } : args;
    const parsed = action.input.safeParse(input);
    if (parsed.success) return { ok: true, value: parsed.data };
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    return { ok: false, error: `Invalid arguments: ${issues.join('; ')}` };
  }
}

const refused = (err: DomainError): AgentToolResult => ({ error: err.message, code: err.code });
