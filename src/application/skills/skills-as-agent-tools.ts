import type { ToolDefinition } from '../ports/ai-provider.port.js';
import type { InstalledSkillRecord } from '../ports/skill-install-repository.port.js';
import type { ToolSchemas } from '../ports/tool-schema.port.js';
import type { SkillHandler } from './skill-handler.js';

/**
 * How installed skills become an agent's tools: one tool per action of an installed AND enabled
 * skill, named `<slug>__<action>` (slugs never contain `__`, so the name splits back), its
 * parameters the JSON schema of the action's zod input without the `action` property (the name
 * already selects the action; it is put back before parsing).
 */

const SEPARATOR = '__';
/** OpenAI's rule for a function name, the strictest of the vendors. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export const toolName = (slug: string, action: string): string => `${slug}${SEPARATOR}${action}`;

/** `<slug>__<action>` split back; null when the name has no separator. */
export function splitToolName(name: string): { slug: string; action: string } | null {
  const at = name.indexOf(SEPARATOR);
  if (at <= 0) return null;
  return { slug: name.slice(0, at), action: name.slice(at + SEPARATOR.length) };
}

/** The tools offered for these installs, in install order then action order. */
export function agentTools(installs: readonly InstalledSkillRecord[], handlers: readonly SkillHandler[], schemas: ToolSchemas): ToolDefinition[] {
  const bySlug = new Map(handlers.map((h) => [h.slug as string, h]));
  const tools: ToolDefinition[] = [];
  for (const install of installs) {
    if (!install.enabled) continue;
    const handler = bySlug.get(install.skillId);
    if (!handler) continue;
    for (const action of handler.actions) {
      const name = toolName(handler.slug, action.name);
      if (!TOOL_NAME.test(name)) continue;
      tools.push({ name, description: action.description, parameters: schemas.parametersOf(action).parameters });
    }
  }
  return tools;
}
