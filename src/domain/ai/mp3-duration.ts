/**
 * The playing time of MPEG audio (MP3 and its layer I/II cousins) counted frame by frame, without
 * decoding: each frame header gives its length and its sample count. Null unless the frames cover
 * nearly all the bytes after an ID3v2 tag (MIN_COVERAGE): bytes that are not frames could be
 * another format a decoder reads for longer, so the count is only trusted when there is nothing
 * else. A Xing or VBRI header's frame count is never read: it is a claim, the frames are the audio.
 */
export function mp3DurationSeconds(bytes: Uint8Array): number | null {
  const start = id3v2Length(bytes);
  let at = start;
  let covered = 0;
  let seconds = 0;
  while (at + 4 <= bytes.length) {
    const frame = frameAt(bytes, at);
    if (!frame || at + frame.length > bytes.length) {
      at++;
      continue;
    }
    covered += frame.length;
    seconds += frame.samples / frame.sampleRate;
    at += frame.length;
  }
  const audioBytes = bytes.length - start - id3v1Length(bytes);
  return audioBytes > 0 && covered >= audioBytes * MIN_COVERAGE ? seconds : null;
}

/** The share of the bytes (after the tags) the frames must cover. */
const MIN_COVERAGE = 0.95;

/** kbit/s by [version is MPEG-1][layer 1..3][index]. */
const BITRATES: Record<'v1' | 'v2', Record<1 | 2 | 3, number[]>> = {
  v1: {
    1: [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    2: [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    3: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  },
  v2: {
    1: [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    3: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  },
};
/** Hz by version bits (0: MPEG-2.5, 2: MPEG-2, 3: MPEG-1) and index. */
const SAMPLE_RATES: Record<number, number[]> = { 0: [11025, 12000, 8000], 2: [22050, 24000, 16000], 3: [44100, 48000, 32000] };

function frameAt(b: Uint8Array, at: number): { length: number; samples: number; sampleRate: number } | null {
  if (b[at] !== 0xff || (b[at + 1]! & 0xe0) !== 0xe0) return null;
  const versionBits = (b[at + 1]! >> 3) & 3;
  const layerBits = (b[at + 1]! >> 1) & 3;
  const bitrateIndex = b[at + 2]! >> 4;
  const rateIndex = (b[at + 2]! >> 2) & 3;
  const padding = (b[at + 2]! >> 1) & 1;
  // reserved values, and the free format (index 0), whose length a header does not give
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const layer = (4 - layerBits) as 1 | 2 | 3;
  const mpeg1 = versionBits === 3;
  const bitrate = BITRATES[mpeg1 ? 'v1' : 'v2'][layer][bitrateIndex]! * 1000;
  const sampleRate = SAMPLE_RATES[versionBits]![rateIndex]!;
  if (layer === 1) return { length: (Math.floor((12 * bitrate) / sampleRate) + padding) * 4, samples: 384, sampleRate };
  const samples = layer === 3 && !mpeg1 ? 576 : 1152;
  return { length: Math.floor(((samples / 8) * bitrate) / sampleRate) + padding, samples, sampleRate };
}

/** An ID3v2 tag at the start: its header and its syncsafe size (and a footer when flagged). */
function id3v2Length(b: Uint8Array): number {
  if (b.length < 10 || b[0] !== 0x49 || b[1] !== 0x44 || b[2] !== 0x33) return 0;
  const size = ((b[6]! & 0x7f) << 21) | ((b[7]! & 0x7f) << 14) | ((b[8]! & 0x7f) << 7) | (b[9]! & 0x7f);
  const footer = b[5]! & 0x10 ? 10 : 0;
  return Math.min(b.length, 10 + size + footer);
}

/** An ID3v1 tag at the end: 128 bytes starting "TAG". */
function id3v1Length(b: Uint8Array): number {
  const at = b.length - 128;
  return at >= 0 && b[at] === 0x54 && b[at + 1] === 0x41 && b[at + 2] === 0x47 ? 128 : 0;
}
