import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { buildSetlist } from '../../../domain/skills/setlist.js';
import type { StoredTrack } from '../../ports/track-repository.port.js';
import { UNIT_OF_WORK, type UserWork } from '../../ports/unit-of-work.port.js';
import type { SkillAction, SkillHandler } from '../skill-handler.js';
import { action, iso, text } from './skill-inputs.js';

/**
 * setlist-oracle: builds setlists from the user's OWN stored tracks only (`add_track`); with no
 * tracks of the genre the setlist is empty, never an invented catalog.
 */
@injectable()
export class SetlistOracleSkill implements SkillHandler {
  readonly slug = 'setlist-oracle';
  readonly version = '1.0.0';
  readonly capabilities = [];
  readonly actions: readonly SkillAction[];

  constructor(@inject(UNIT_OF_WORK) uow: UserWork<'tracks'>) {
    this.actions = [
      action({
        name: 'add_track',
        description: "Add a track to the user's library: title, artist, genre and duration in seconds.",
        input: z.strictObject({ action: z.literal('add_track'), title: text(200), artist: text(200), genre: text(100), durationSeconds: z.number().int().min(1).max(86_400) }),
        capabilities: [],
        run: async (ctx, input) => {
          const track = await uow.asUser(ctx.userId, (s) => s.tracks.insert(ctx.userId, { title: input.title, artist: input.artist, genre: input.genre, durationSeconds: input.durationSeconds }));
          return { track: present(track) };
        },
      }),
      action({
        name: 'list_tracks',
        description: "List the user's tracks, optionally of one genre.",
        input: z.strictObject({ action: z.literal('list_tracks'), genre: text(100).optional() }),
        capabilities: [],
        run: async (ctx, input) => {
          const tracks = await uow.asUser(ctx.userId, (s) => s.tracks.list(input.genre));
          return { tracks: tracks.map(present), count: tracks.length };
        },
      }),
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
      }),
    ];
  }
}

const present = (t: StoredTrack) => ({ id: t.id, title: t.title, artist: t.artist, genre: t.genre, durationSeconds: t.durationSeconds, createdAt: iso(t.createdAt) });
