import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { MUSIC_CATALOG, type MusicCatalog } from '../../ports/music-catalog.port.js';
import type { SkillHandler } from '../skill-handler.js';
import { defineAction, shortText } from './define-action.js';

/** track-archaeologist: spec "Known request shapes" `{action: "search", bpm, genre, mood}`. */
@injectable()
export class TrackArchaeologistSkill implements SkillHandler {
  readonly slug = 'track-archaeologist';
  readonly version = '1.0.0';
  readonly capabilities = ['network'] as const;
  readonly actions;

  constructor(@inject(MUSIC_CATALOG) catalog: MusicCatalog) {
    this.actions = [
      defineAction({
        name: 'search',
        description: 'Search tracks by tempo (BPM), genre and mood.',
        capabilities: ['network'],
        input: z.strictObject({ action: z.literal('search'), bpm: z.number().min(20).max(400).optional(), genre: shortText().optional(), mood: shortText().optional() }),
        async run(ctx, { bpm, genre, mood }) {
          ctx.requireCapability('network');
          return { tracks: await catalog.searchTracks({ bpm, genre, mood }, ctx.signal) };
        },
      }),
    ];
  }
}
