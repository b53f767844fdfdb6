import { inject, injectable } from 'tsyringe';
import type { ToolDefinition } from '../ports/ai-provider.port.js';
import type { InstalledSkillRecord } from '../ports/skill-install-repository.port.js';
import { TOOL_SCHEMAS, type ToolSchemas } from '../ports/tool-schema.port.js';
import { agentTools } from './skills-as-agent-tools.js';
import type { SkillHandler } from './skill-handler.js';
import { SKILL_HANDLERS } from '../ports/skill-handlers.port.js';
import type { AgentToolSource } from '../ports/agent-tool-source.port.js';

@injectable()
export class AgentToolbox implements Pick<AgentToolSource, 'toolsFor'> {
  constructor(
    @inject(SKILL_HANDLERS) private readonly handlers: readonly SkillHandler[],
    @inject(TOOL_SCHEMAS) private readonly schemas: ToolSchemas,
  ) {}

  toolsFor(installs: readonly InstalledSkillRecord[]): ToolDefinition[] {
    if (this.handlers.length === 0 || installs.length === 0) return [];
    return agentTools(installs, this.handlers, this.schemas);
  }
}
