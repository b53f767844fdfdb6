import { z } from 'zod';
import { toScaled } from '../../../../domain/skills/money.js';
import { FULL_BASIS_POINTS, splitAmount, type SplitShare } from '../../../../domain/skills/split.js';
import type { SplitExecution, SplitRule } from '../../../ports/split-repository.port.js';
import { id, iso, percentage, text } from '../skill-inputs.js';

export const share = z.strictObject({ recipientAddress: text(200), percentage, role: text(100), name: text(200) });

/** A rule's shares: percentages (exact to hundredths) summing to exactly 100. */
export const splits = z
  .array(share)
  .min(1)
  .max(50)
  .refine((xs) => xs.reduce((a, s) => a + s.percentage, 0) === FULL_BASIS_POINTS, 'percentages must sum to exactly 100')
  .transform((xs): SplitShare[] => xs.map((s) => ({ recipientAddress: s.recipientAddress, role: s.role, name: s.name, basisPoints: s.percentage })));

/** A per-stream rate in dollars, exact to millionths (0.0034). */
export const rate = z
  .number()
  .nonnegative()
  .refine((n) => toScaled(n, 6) !== null, 'must have at most 6 decimals')
  .transform((n) => toScaled(n, 6)!);

export const presentAllocation = (a: ReturnType<typeof splitAmount>[number]) => ({
  recipientAddress: a.recipientAddress, name: a.name, role: a.role, percentage: a.basisPoints / 100, amountCents: a.amountCents,
});

export const presentRule = (r: SplitRule) => ({
  splitId: r.id,
  splits: r.splits.map((s) => ({ recipientAddress: s.recipientAddress, name: s.name, role: s.role, percentage: s.basisPoints / 100 })),
  thresholdCents: r.thresholdCents, pendingCents: r.pendingCents, currency: 'USD', createdAt: iso(r.createdAt),
});

export const presentExecution = (e: SplitExecution) => ({ id: e.id, splitId: e.ruleId, amountCents: e.amountCents, allocations: e.allocations.map(presentAllocation), createdAt: iso(e.createdAt) });
