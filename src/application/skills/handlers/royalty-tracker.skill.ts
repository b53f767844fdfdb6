import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import type { RoyaltyEntry } from '../../ports/royalty-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../../ports/unit-of-work.port.js';
import type { SkillAction, SkillHandler } from '../skill-handler.js';
import { action, iso, money, text } from './skill-inputs.js';

const filter = { source: text(200).optional(), period: text(50).optional() };

/** royalty-tracker: royalty entries the user records (source, amount, optional period); `total` sums them exactly in cents. */
@injectable()
export class RoyaltyTrackerSkill implements SkillHandler {
  readonly slug = 'royalty-tracker';
  readonly version = '1.0.0';
  readonly capabilities = [];
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<'royalties'>) {
    this.actions = [
      action({
        name: 'record',
        description: 'Record a royalty payment: its source (platform, PRO, label), amount in dollars, and optionally its period (e.g. 2026-Q3).',
        input: z.strictObject({ action: z.literal('record'), source: text(200), amount: money, period: text(50).optional() }),
        capabilities: [],
        run: async (ctx, input) => {
          const entry = await uow.asUser(ctx.userId, (s) => s.royalties.insert(ctx.userId, { source: input.source, amountCents: input.amount, period: input.period ?? null }));
          return { entry: present(entry) };
        },
      }),
      action({
        name: 'total',
        description: 'The exact total of recorded royalties, overall and per source, optionally only one source or period.',
        input: z.strictObject({ action: z.literal('total'), ...filter }),
        capabilities: [],
        run: async (ctx, input) => {
          const entries = await uow.asUser(ctx.userId, (s) => s.royalties.list({ source: input.source, period: input.period }));
          const bySource = new Map<string, number>();
          for (const e of entries) bySource.set(e.source, (bySource.get(e.source) ?? 0) + e.amountCents);
          return {
            totalCents: entries.reduce((a, e) => a + e.amountCents, 0),
            currency: 'USD',
            entries: entries.length,
            bySource: [...bySource].map(([source, totalCents]) => ({ source, totalCents })),
          };
        },
      }),
      action({
        name: 'list',
        description: 'List the recorded royalty entries, oldest first, optionally only one source or period.',
        input: z.strictObject({ action: z.literal('list'), ...filter }),
        capabilities: [],
        run: async (ctx, input) => {
          const entries = await uow.asUser(ctx.userId, (s) => s.royalties.list({ source: input.source, period: input.period }));
          return { entries: entries.map(present), count: entries.length };
        },
      }),
    ];
  }
}

const present = (e: RoyaltyEntry) => ({ id: e.id, source: e.source, amountCents: e.amountCents, currency: 'USD', period: e.period, createdAt: iso(e.createdAt) });
