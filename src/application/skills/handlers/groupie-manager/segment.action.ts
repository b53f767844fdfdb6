import { z } from 'zod';
import { FAN_SEGMENTS, segmentFans } from '../../../../domain/skills/fan-segments.js';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action } from '../skill-inputs.js';
import { count, present } from './groupie-manager.shared.js';

/** The `segment` action of groupie-manager. */
export const segmentAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'fans'> }) =>
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
  });
