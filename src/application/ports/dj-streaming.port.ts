import type { InjectionToken } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';

// An outside service a skill needs (docs/decisions/0082-outside-service-skills.md). Until a vendor
// adapter replaces it, the default one throws SkillNotConfiguredError (HTTP 501 NOT_CONFIGURED),
// never an invented answer; a vendor failure is UpstreamUnavailableError (502); `signal` aborts.

/**
 * DJ streams a broadcaster can actually reach (dj-streaming): an ingest the service does not run.
 * The LiveStreams port's local adapter only issues ids that nothing serves, so it is not used here.
 */
export interface DjStreaming {
  start(userId: UserId, stream: { title: string }, signal?: AbortSignal): Promise<{ streamId: string; ingestUrl: string; playbackUrl: string }>;
  stop(userId: UserId, streamId: string, signal?: AbortSignal): Promise<{ streamId: string }>;
}

export const DJ_STREAMING: InjectionToken<DjStreaming> = Symbol('DjStreaming');
