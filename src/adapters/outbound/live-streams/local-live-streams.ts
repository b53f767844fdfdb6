import { randomBytes, randomUUID } from 'node:crypto';
import type { LiveStream, LiveStreams } from '../../../application/ports/live-streams.port.js';

/**
 * The default LiveStreams adapter: no streaming vendor is configured, so ids are issued here. The
 * id is a random uuid; the key is 256 random bits (`lsk_` + base64url), returned once to the
 * caller; the service stores only its sha256. A vendor adapter would replace this one behind the
 * same port.
 */
export class LocalLiveStreams implements LiveStreams {
  async create(): Promise<LiveStream> {
    return { liveStreamId: randomUUID(), streamKey: `lsk_${randomBytes(32).toString('base64url')}` };
  }
}
