import { z } from 'zod';
import { buildSetlist } from '../../../../domain/skills/setlist.js';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, text } from '../skill-inputs.js';
import { present } from './setlist-oracle.shared.js';

/** The `build` action of setlist-oracle. */
export const buildAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'tracks'> }) =>
  action({
    name: 'build',
    description: "Build the longest setlist of a genre from the user's own tracks that fits the duration in minutes.",
    input: z.strictObject({ action: z.literal('build'), genre: text(100), duration: z.number().positive().max(24 * 60) }),
    capabilities: [],
    run: async (ctx, input) => {
      const tracks = await uow.asUser(ctx.userId, (s) => s.tracks.list(input.genre));
      const targetSeconds = Math.floor(input.duration * 60);
      const set = buildSetlist(tracks, targetSeconds);
      return {
        genre: input.genre,
        targetSeconds,
        totalSeconds: set.totalSeconds,
        gapSeconds: targetSeconds - set.totalSeconds,
        setlist: set.tracks.map(present),
        availableTracks: tracks.length,
      };
    },
  });
