import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { FAN_SEGMENTS, segmentFans } from '../../../domain/skills/fan-segments.js';
import type { Fan } from '../../ports/fan-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../../ports/unit-of-work.port.js';
import type { SkillAction, SkillHandler } from '../skill-handler.js';
import { action, iso, text } from './skill-inputs.js';

const count = z.number().int().nonnegative().max(1_000_000_000).default(0);

/** groupie-manager: the user's stored fans (`add_fan`, `list`), segmented by engagement (domain/skills/fan-segments.ts). */
@injectable()
export class GroupieManagerSkill implements SkillHandler {
  readonly slug = 'groupie-manager';
  readonly version = '1.0.0';
  readonly capabilities = [];
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<'fans'>) {
    this.actions = [
      action({
        name: 'add_fan',
        description: 'Add a fan with their activity: shows attended, purchases and streams.',
        input: z.strictObject({ action: z.literal('add_fan'), name: text(200), email: z.email().max(320).optional(), city: text(100).optional(), showsAttended: count, purchases: count, streams: count }),
        capabilities: [],
        run: async (ctx, input) => {
          const fan = await uow.asUser(ctx.userId, (s) =>
            s.fans.insert(ctx.userId, { name: input.name, email: input.email ?? null, city: input.city ?? null, showsAttended: input.showsAttended, purchases: input.purchases, streams: input.streams }),
          );
          return { fan: present(fan) };
        },
      }),
      action({
        name: 'list',
        description: "List the user's fans, oldest first.",
        input: z.strictObject({ action: z.literal('list') }),
        capabilities: [],
        run: async (ctx) => {
          const fans = await uow.asUser(ctx.userId, (s) => s.fans.list());
          return { fans: fans.map(present), count: fans.length };
        },
      }),
      action({
        name: 'segment',
        description: "Segment the user's fans by engagement score (10 per show, 5 per purchase, 1 per 100 streams): superfan ≥ 50, engaged ≥ 20, casual ≥ 1, dormant 0.",
        input: z.strictObject({ action: z.literal('segment') }),
        capabilities: [],
        run: async (ctx) => {
          const fans = await uow.asUser(ctx.userId, (s) => s.fans.list());
          const segments = segmentFans(fans);
          return {
            total: fans.length,
            segments: FAN_SEGMENTS.map((name) => ({ segment: name, count: segments[name].length, fans: segments[name].map((f) => ({ ...present(f), score: f.score })) })),
          };
        },
      }),
    ];
  }
}

const present = (f: Fan) => ({ id: f.id, name: f.name, email: f.email, city: f.city, showsAttended: f.showsAttended, purchases: f.purchases, streams: f.streams, createdAt: iso(f.createdAt) });
