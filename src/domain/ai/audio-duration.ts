import { mp3DurationSeconds } from './mp3-duration.js';
import { readWav } from './wav-duration.js';

/** What a WAV file may hold besides its samples (headers, tags): beyond it, the rest could be audio of another kind. */
const maxWavOtherBytes = (length: number) => Math.max(4_096, length * 0.05);

/**
 * How long audio plays, read from its bytes where no claim in a header can shorten it: an
 * uncompressed WAV whose samples are nearly all of it, or MPEG audio counted frame by frame. Null
 * for anything else (compressed formats whose length only decoding tells): a caller that must
 * bound the length before paying a provider for it refuses those.
 */
export function provenAudioSeconds(bytes: Uint8Array): number | null {
  const wav = readWav(bytes);
  if (wav) return bytes.length - wav.dataBytes <= maxWavOtherBytes(bytes.length) ? wav.seconds : null;
  return mp3DurationSeconds(bytes);
}
