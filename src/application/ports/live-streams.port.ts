import type { InjectionToken } from 'tsyringe';
import type { UserId } from '../../domain/shared/ids.js';

/** A live stream created for a provisioned agent: its id and the key a broadcaster streams with. */
export interface LiveStream {
  readonly liveStreamId: string;
  /** A secret: shown to the caller once, never stored in the clear and never logged. */
  readonly streamKey: string;
}

/**
 * Where live streams are created (spec: "a live stream is created for the agent"). Called outside
 * any database transaction. Safe to call concurrently; every call creates a new stream.
 */
export interface LiveStreams {
  /**
   * Creates a stream owned by `userId`.
   * @throws UpstreamUnavailableError when the streaming vendor fails or times out (HTTP 502).
   */
  create(userId: UserId): Promise<LiveStream>;
}
export const LIVE_STREAMS: InjectionToken<LiveStreams> = Symbol('LiveStreams');
