/**
 * The codes a refused tool call reports to the model (`{error, code}` as the tool's result). A
 * handler's own DomainError keeps its code; SKILL_CAPABILITY_DENIED comes from skill-handler.ts.
 */
export const TOOL_REFUSAL = {
  /** The name is not `<slug>__<action>` of a known skill and action. */
  unknownTool: 'UNKNOWN_TOOL',
  notInstalled: 'SKILL_NOT_INSTALLED',
  disabled: 'SKILL_DISABLED',
  /** The arguments are not JSON, or do not parse with the action's schema. */
  invalidArguments: 'INVALID_ARGUMENTS',
  /** The handler crashed (logged); nothing is claimed about what it did. */
  failed: 'TOOL_FAILED',
} as const;
