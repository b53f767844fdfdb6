import { inject, injectable } from 'tsyringe';
import type { InjectionToken } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';
import type { ToolDefinition } from '../ports/ai-provider.port.js';
import { TOOL_SCHEMAS, type ToolSchemas } from '../ports/tool-schema.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import { agentTools } from './agent-tools.js';
import { SKILL_HANDLERS, type SkillHandler } from './skill-handler.js';

/** An agent's tools for one answer: its installed and enabled skills' actions. */
export interface AgentToolSource {
  toolsFor(ownerId: UserId, agentId: string): Promise<ToolDefinition[]>;
}
/**
 * Resolved per call in bootstrap: the mailbox worker is built early, and the skills' handlers
 * may be registered after it (another area's registration, a test's), so they are looked up late.
 */
export const AGENT_TOOL_SOURCE: InjectionToken<AgentToolSource> = Symbol('AgentToolSource');

@injectable()
export class AgentToolbox implements AgentToolSource {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<'skillInstalls'>,
    @inject(SKILL_HANDLERS) private readonly handlers: readonly SkillHandler[],
    @inject(TOOL_SCHEMAS) private readonly schemas: ToolSchemas,
  ) {}

  async toolsFor(ownerId: UserId, agentId: string): Promise<ToolDefinition[]> {
    if (this.handlers.length === 0) return [];
    // installs are the owner's rows: read as the owner, under RLS
    const installs = await this.uow.asUser(ownerId, (s) => s.skillInstalls.listForAgent(agentId));
    return agentTools(installs, this.handlers, this.schemas);
  }
}
