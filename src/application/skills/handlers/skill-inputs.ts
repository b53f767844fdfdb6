import { z } from 'zod';
import { toCents, toScaled } from '../../../domain/skills/money.js';
import type { SkillAction } from '../skill-handler.js';

/**
 * The input pieces the stateful skills share, so every action validates money, text and ids the
 * same way (a wrong shape is a ZodError before `run`).
 */

/** Keeps the schema's type on `run`'s input while the handler lists its actions as plain SkillActions. */
export const action = <S extends z.ZodType>(a: SkillAction<S>): SkillAction<S> => a;

/** Text a person or model wrote: non-empty, bounded, never a NUL (PostgreSQL cannot store it). */
export const text = (max: number) =>
  z.string().trim().min(1).max(max).refine((s) => !s.includes('\u0000'), 'must not contain a NUL character');

/** A row id as the skill returned it; any other text simply names nothing (404). */
export const id = z.string().min(1).max(100);

/** Major units as a JSON number, at most 2 decimals (exact; see domain/skills/money.ts). */
export const money = z
  .number()
  .nonnegative()
  .refine((n) => toCents(n) !== null, 'must be an amount with at most 2 decimals')
  .transform((n) => toCents(n)!);

/** A percentage exact to hundredths, as basis points (33.33 → 3333). */
export const percentage = z
  .number()
  .gt(0)
  .max(100)
  .refine((n) => toScaled(n, 2) !== null, 'must have at most 2 decimals')
  .transform((n) => Number(toScaled(n, 2)!));

export const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
