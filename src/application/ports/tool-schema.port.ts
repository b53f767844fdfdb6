import type { InjectionToken } from 'tsyringe';
import type { SkillAction } from '../skills/skill-handler.js';

/** An action's input as offered to a model. */
export interface ToolParameters {
  /** JSON schema of the arguments object, without the `action` property (the tool's name selects it). */
  readonly parameters: Record<string, unknown>;
  /** True when the action's input has an `action` field: it is put back before parsing. */
  readonly selectsByAction: boolean;
}

/** Derives the JSON schema models see from an action's zod input (the schema library stays in adapters). */
export interface ToolSchemas {
  parametersOf(action: SkillAction): ToolParameters;
}
export const TOOL_SCHEMAS: InjectionToken<ToolSchemas> = Symbol('ToolSchemas');
