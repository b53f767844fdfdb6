import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, money, text } from '../skill-inputs.js';
import { present } from './royalty-tracker.shared.js';

/** The `record` action of royalty-tracker. */
export const recordAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'royalties'> }) =>
  action({
    name: 'record',
    description: 'Record a royalty payment: its source (platform, PRO, label), amount in dollars, and optionally its period (e.g. 2026-Q3).',
    input: z.strictObject({ action: z.literal('record'), source: text(200), amount: money, period: text(50).optional() }),
    capabilities: [],
    run: async (ctx, input) => {
      const entry = await uow.asUser(ctx.userId, (s) => s.royalties.insert(ctx.userId, { source: input.source, amountCents: input.amount, period: input.period ?? null }));
      return { entry: present(entry) };
    },
  });
