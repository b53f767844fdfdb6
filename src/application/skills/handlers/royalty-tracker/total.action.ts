import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action } from '../skill-inputs.js';
import { filter } from './royalty-tracker.shared.js';

/** The `total` action of royalty-tracker. */
export const totalAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'royalties'> }) =>
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
  });
