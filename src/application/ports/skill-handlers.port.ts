import type { InjectionToken } from 'tsyringe';
import type { SkillHandler } from '../skills/skill-handler.js';

/** Every skill's handler, one per slug of the catalog (the contract: skills/skill-handler.ts). */
export const SKILL_HANDLERS: InjectionToken<readonly SkillHandler[]> = Symbol('SkillHandlers');
