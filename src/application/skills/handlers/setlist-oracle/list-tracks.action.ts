import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, text } from '../skill-inputs.js';
import { present } from './setlist-oracle.shared.js';

/** The `list_tracks` action of setlist-oracle. */
export const listTracksAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'tracks'> }) =>
  action({
    name: 'list_tracks',
    description: "List the user's tracks, optionally of one genre.",
    input: z.strictObject({ action: z.literal('list_tracks'), genre: text(100).optional() }),
    capabilities: [],
    run: async (ctx, input) => {
      const tracks = await uow.asUser(ctx.userId, (s) => s.tracks.list(input.genre));
      return { tracks: tracks.map(present), count: tracks.length };
    },
  });
