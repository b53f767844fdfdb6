import { inject, injectable } from 'tsyringe';
import type { InjectionToken } from 'tsyringe';
import type { ToolDefinition } from '../ports/ai-provider.port.js';
import type { InstalledSkillRecord } from '../ports/skill-install-repository.port.js';
import { TOOL_SCHEMAS, type ToolSchemas } from '../ports/tool-schema.port.js';
import { agentTools } from './skills-as-agent-tools.js';
import { SKILL_HANDLERS, type SkillHandler } from './skill-handler.js';

/** An agent's tools for one answer: its installed and enabled skills' actions. */
export interface AgentToolSource {
  /** The tools for these installs (read by the caller in its own transaction). */
  toolsFor(installs: readonly InstalledSkillRecord[]): ToolDefinition[];
}
/**
 * Resolved per call in bootstrap: the mailbox worker is built early, and the skills' handlers
 * may be registered after it (another area's registration, a test's), so they are looked up late.
 */
export const AGENT_TOOL_SOURCE: InjectionToken<AgentToolSource> = Symbol('AgentToolSource');

@injectable()
export class AgentToolbox implements AgentToolSource {
  constructor(
    @inject(SKILL_HANDLERS) private readonly handlers: readonly SkillHandler[],
    @inject(TOOL_SCHEMAS) private readonly schemas: ToolSchemas,
  ) {}

  toolsFor(installs: readonly InstalledSkillRecord[]): ToolDefinition[] {
    if (this.handlers.length === 0 || installs.length === 0) return [];
    return agentTools(installs, this.handlers, this.schemas);
  }
}
