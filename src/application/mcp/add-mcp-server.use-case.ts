import { inject, injectable } from 'tsyringe';
import { allowanceOf } from '../../domain/agents/agent-limits.js';
import { isSubscribed } from '../../domain/billing/subscription.js';
import { isAllowedMcpHeader, isMcpServerName, mcpServerLimit } from '../../domain/mcp/mcp-server.js';
import { McpServerLimitReachedError, McpServerNameTakenError, McpTargetRefusedError, SubscriptionRequiredForMcpError } from '../../domain/mcp/mcp-server.errors.js';
import { webhookUrlProblem } from '../../domain/webhooks/webhook-target.js';
import type { Actor } from '../auth/actor.js';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { MCP_CLIENT, type McpClient } from '../ports/mcp-client.port.js';
import type { McpServerRecord } from '../ports/mcp-server-repository.port.js';
import { MCP_SETTINGS, type McpSettings } from '../ports/mcp-settings.port.js';
import type { McpUserScope } from '../ports/scopes/mcp-scope.port.js';
import { SECRET_BOX, type SecretBox } from '../ports/secret-box.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import { sealMcpHeaders } from './mcp-headers.js';
import { checkMcpServer } from './mcp-server-check.js';

export interface AddMcpServerInput {
  name: string;
  url: string;
  headers?: Record<string, string> | undefined;
  tools?: string[] | undefined;
}

const URL_PROBLEMS = {
  'not-a-url': 'not a URL',
  scheme: 'only http and https URLs are accepted',
  credentials: 'a URL may not carry credentials (use headers)',
  'private-target': 'loopback and private addresses are refused (MCP_ALLOW_PRIVATE_TARGETS)',
} as const;

/**
 * POST /api/agents/:id/mcp-servers (decision 0440). In order, nothing stored on any refusal: the
 * input (name, header names, URL by the webhooks' outbound rule: 400); the agent is the caller's
 * (404), a subscribed plan (402, admins exempt), the plan's bound on servers (429), a free name
 * (409). Then, outside any transaction, the server's tools are listed through the service's MCP
 * client (the address checked again as resolved at connect): its outcome is the server's
 * `status`, a failure included: the server is stored either way, for a later refresh. Last, in
 * one transaction under the agent's lock, the bound again and the insert, headers sealed.
 */
@injectable()
export class AddMcpServer {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<McpUserScope, 'agents' | 'subscriptions' | 'mcpServers'>,
    @inject(MCP_CLIENT) private readonly client: McpClient,
    @inject(MCP_SETTINGS) private readonly settings: McpSettings,
    @inject(SECRET_BOX) private readonly box: SecretBox,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, agentId: string, input: AddMcpServerInput): Promise<McpServerRecord> {
    const headers = input.headers ?? {};
    if (!isMcpServerName(input.name)) throw invalid('name', 'lower-case letters, digits, "-" and single "_", at most 32 characters');
    const badHeader = Object.keys(headers).find((h) => !isAllowedMcpHeader(h));
    if (badHeader !== undefined) throw invalid(`headers/${badHeader}`, 'is not a header the service may send');
    const problem = webhookUrlProblem(input.url, this.settings.allowPrivate);
    if (problem) throw new McpTargetRefusedError(URL_PROBLEMS[problem]);

    const limit = await this.uow.asUser(actor.userId, (s) => this.admissible(s, actor, agentId, input.name));
    const check = await checkMcpServer(this.client, this.clock, { url: input.url, headers });

    const id = this.ids.uuid();
    const record = {
      id,
      agentId,
      userId: actor.userId,
      name: input.name,
      url: input.url,
      headerNames: Object.keys(headers),
      headers: sealMcpHeaders(this.box, id, agentId, headers),
      allowedTools: input.tools ? [...new Set(input.tools)] : null,
      ...check,
    };
    return this.uow.asUser(actor.userId, async (s) => {
      if (!(await s.agents.get(agentId))) throw new NotFoundError('Agent');
      await s.mcpServers.lockAgent(agentId);
      const current = await s.mcpServers.countForAgent(agentId);
      if (current >= limit) throw new McpServerLimitReachedError(current, limit);
      const stored = await s.mcpServers.insert(record);
      if (!stored) throw new McpServerNameTakenError(input.name);
      return stored;
    });
  }

  /** The refusals that need no network, before the server is contacted; the plan's bound when all pass. */
  private async admissible(s: Pick<McpUserScope, 'agents' | 'subscriptions' | 'mcpServers'>, actor: Actor, agentId: string, name: string): Promise<number> {
    if (!(await s.agents.get(agentId))) throw new NotFoundError('Agent');
    const plans = (await s.subscriptions.list()).flatMap((sub) => (sub.plan && isSubscribed(sub.status) ? [sub.plan] : []));
    const allowance = allowanceOf(plans, actor.role === 'admin');
    if (!allowance) throw new SubscriptionRequiredForMcpError();
    const limit = mcpServerLimit(allowance);
    const servers = await s.mcpServers.listForAgent(agentId);
    if (servers.length >= limit) throw new McpServerLimitReachedError(servers.length, limit);
    if (servers.some((x) => x.name === name)) throw new McpServerNameTakenError(name);
    return limit;
  }
}

const invalid = (field: string, message: string) => new InvalidInputError('VALIDATION_ERROR', `${field}: ${message}`, { details: [{ path: `body/${field}`, message }] });
