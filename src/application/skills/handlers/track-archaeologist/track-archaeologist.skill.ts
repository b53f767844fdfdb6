import { inject, injectable } from 'tsyringe';
import { MUSIC_CATALOG, type MusicCatalog } from '../../../ports/music-catalog.port.js';
import type { SkillHandler } from '../../skill-handler.js';
import { searchAction } from './search.action.js';

/** track-archaeologist: spec "Known request shapes" `{action: "search", bpm, genre, mood}`. */
@injectable()
export class TrackArchaeologistSkill implements SkillHandler {
  readonly slug = 'track-archaeologist';
  readonly version = '1.0.0';
  readonly capabilities = ['network'] as const;
  readonly actions;

  constructor(@inject(MUSIC_CATALOG) catalog: MusicCatalog) {
    this.actions = [searchAction({ catalog })];
  }
}
