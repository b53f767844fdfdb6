import { z } from 'zod';
import type { ToolDefinition } from '../ports/ai-provider.port.js';
import type { InstalledSkillRecord } from '../ports/skill-install-repository.port.js';
import type { SkillAction, SkillHandler } from './skill-handler.js';

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

/** The action's input as the JSON schema offered to models, and whether its input carries `action`. */
export function actionParameters(action: SkillAction): { parameters: Record<string, unknown>; hasActionField: boolean } {
  // `io: 'input'`: the model writes what the schema accepts (before defaults and transforms)
  const schema = z.toJSONSchema(action.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema: _dialect, ...rest } = schema;
  const properties = (rest.properties ?? {}) as Record<string, unknown>;
  const hasActionField = 'action' in properties;
  if (!hasActionField) return { parameters: { type: 'object', properties: {}, ...rest }, hasActionField };
  const { action: _action, ...others } = properties;
  const parameters: Record<string, unknown> = { ...rest, properties: others };
  const required = Array.isArray(rest.required) ? rest.required.filter((r) => r !== 'action') : [];
  if (required.length > 0) parameters.required = required;
  else delete parameters.required;
  return { parameters, hasActionField };
}

/** The tools offered for these installs, in install order then action order. */
export function agentTools(installs: readonly InstalledSkillRecord[], handlers: readonly SkillHandler[]): ToolDefinition[] {
  const bySlug = new Map(handlers.map((h) => [h.slug as string, h]));
  const tools: ToolDefinition[] = [];
  for (const install of installs) {
    if (!install.enabled) continue;
    const handler = bySlug.get(install.skillId);
    if (!handler) continue;
    for (const action of handler.actions) {
      const name = toolName(handler.slug, action.name);
      if (!TOOL_NAME.test(name)) continue;
      tools.push({ name, description: action.description, parameters: actionParameters(action).parameters });
    }
  }
  return tools;
}
