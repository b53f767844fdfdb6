/**
 * What a skill may reach beyond its own stored rows. A skill's manifest declares the capabilities
 * it needs; a call (over HTTP or as an agent's tool) may use only those, and a handler asks for a
 * capability before it touches what the capability covers.
 */
export const SKILL_CAPABILITIES = ['network', 'wallet', 'memory', 'payments', 'messaging'] as const;
export type SkillCapability = (typeof SKILL_CAPABILITIES)[number];
