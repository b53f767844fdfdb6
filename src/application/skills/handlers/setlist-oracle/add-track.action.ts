import { z } from 'zod';
import type { UserWork } from '../../../ports/unit-of-work.port.js';
import type { SkillsUserScope } from '../../../ports/scopes/skills-scope.port.js';
import { action, text } from '../skill-inputs.js';
import { present } from './setlist-oracle.shared.js';

/** The `add_track` action of setlist-oracle. */
export const addTrackAction = ({ uow }: { uow: UserWork<SkillsUserScope, 'tracks'> }) =>
  action({
    name: 'add_track',
    description: "Add a track to the user's library: title, artist, genre and duration in seconds.",
    input: z.strictObject({ action: z.literal('add_track'), title: text(200), artist: text(200), genre: text(100), durationSeconds: z.number().int().min(1).max(86_400) }),
    capabilities: [],
    run: async (ctx, input) => {
      const track = await uow.asUser(ctx.userId, (s) => s.tracks.insert(ctx.userId, { title: input.title, artist: input.artist, genre: input.genre, durationSeconds: input.durationSeconds }));
      return { track: present(track) };
    },
  });
