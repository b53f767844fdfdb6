import type { InjectionToken } from 'tsyringe';

// An outside service a skill needs (docs/decisions/0082-outside-service-skills.md). Until a vendor
// adapter replaces it, the default one throws SkillNotConfiguredError (HTTP 501 NOT_CONFIGURED),
// never an invented answer; a vendor failure is UpstreamUnavailableError (502); `signal` aborts.

export interface VenueQuery { city: string; type?: string | undefined; capacity?: number | undefined; maxPrice?: number | undefined }

export interface FestivalQuery { genre?: string | undefined; country?: string | undefined; maxPrice?: number | undefined }

/** Venue and festival search (venue-finder, festival-finder). */
export interface EventSearch {
  searchVenues(q: VenueQuery, signal?: AbortSignal): Promise<Record<string, unknown>[]>;
  searchFestivals(q: FestivalQuery, signal?: AbortSignal): Promise<Record<string, unknown>[]>;
}

export const EVENT_SEARCH: InjectionToken<EventSearch> = Symbol('EventSearch');
