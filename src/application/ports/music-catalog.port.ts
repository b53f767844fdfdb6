import type { InjectionToken } from 'tsyringe';

// An outside service a skill needs (docs/decisions/0082-outside-service-skills.md). Until a vendor
// adapter replaces it, the default one throws SkillNotConfiguredError (HTTP 501 NOT_CONFIGURED),
// never an invented answer; a vendor failure is UpstreamUnavailableError (502); `signal` aborts.

/** A music catalog searched by feel (track-archaeologist). */
export interface MusicCatalog {
  searchTracks(q: { bpm?: number | undefined; genre?: string | undefined; mood?: string | undefined }, signal?: AbortSignal): Promise<Record<string, unknown>[]>;
}

export const MUSIC_CATALOG: InjectionToken<MusicCatalog> = Symbol('MusicCatalog');
