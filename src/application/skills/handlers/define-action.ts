import { z } from 'zod';
import type { SkillAction } from '../skill-handler.js';

/** Types `run`'s input from the action's own schema, then files it with the others. */
export const defineAction = <S extends z.ZodType>(a: SkillAction<S>): SkillAction => a as unknown as SkillAction;

/** Short free text of a query field (a city, a genre): 1 to 100 characters. */
export const shortText = () => z.string().trim().min(1).max(100);
/** A price or a count a search filters by. */
export const nonNegative = () => z.number().finite().min(0).max(1e9);
