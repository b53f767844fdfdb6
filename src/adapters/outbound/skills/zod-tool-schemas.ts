import { z } from 'zod';
import type { ToolParameters, ToolSchemas } from '../../../application/ports/tool-schema.port.js';
import type { SkillAction } from '../../../application/skills/skill-handler.js';

/**
 * `z.toJSONSchema` of the action's input, as the model writes it (`io: 'input'`: before defaults
 * and transforms; what JSON schema cannot say is left open), minus `$schema` and the `action`
 * property. Computed once per action: handlers are fixed for the life of the process.
 */
export class ZodToolSchemas implements ToolSchemas {
  private readonly cache = new WeakMap<SkillAction, ToolParameters>();

  parametersOf(action: SkillAction): ToolParameters {
    let found = this.cache.get(action);
    if (!found) {
      found = derive(action.input);
      this.cache.set(action, found);
    }
    return found;
  }
}

function derive(input: z.ZodType): ToolParameters {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  if (!('action' in properties)) return { parameters: { type: 'object', properties: {}, ...schema }, selectsByAction: false };
  const { action: _action, ...others } = properties;
  const parameters: Record<string, unknown> = { ...schema, properties: others };
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => r !== 'action') : [];
  if (required.length > 0) parameters.required = required;
  else delete parameters.required;
  return { parameters, selectsByAction: true };
}
