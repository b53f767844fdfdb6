import type { InjectionToken } from 'tsyringe';
import type { SkillHandler } from '../skill-handler.js';

export const STATEFUL_SKILL_HANDLERS: readonly InjectionToken<SkillHandler>[] = [];
