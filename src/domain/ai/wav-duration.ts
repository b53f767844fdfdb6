/**
 * The playing time of a RIFF/WAVE file from its header, without decoding: the `data` chunk's
 * size over the bytes a second its samples take (sample rate × block align, what a decoder plays;
 * the header's own byte-rate field is a claim and is not read). Null when the bytes are not an
 * uncompressed WAV file this can read (then the caller estimates). A `data` size past the end of
 * the bytes (a header written before the length was known, e.g. 0xFFFFFFFF from a stream) counts
 * only the bytes actually present.
 */
export function wavDurationSeconds(bytes: Uint8Array): number | null {
  return readWav(bytes)?.seconds ?? null;
}

/** PCM, IEEE float, and the extensible header that wraps them: formats whose bytes a second are fixed. */
const UNCOMPRESSED = new Set([1, 3, 0xfffe]);

/** The WAV file's playing time and how many of its bytes are samples. */
export function readWav(bytes: Uint8Array): { seconds: number; dataBytes: number } | null {
  if (bytes.length < 12) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return null;
  let bytesPerSecond: number | null = null;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ' && body + 14 <= bytes.length) {
      const format = view.getUint16(body, true);
      bytesPerSecond = UNCOMPRESSED.has(format) ? view.getUint32(body + 4, true) * view.getUint16(body + 12, true) : null;
    }
    if (id === 'data') {
      if (!bytesPerSecond) return null;
      const dataBytes = Math.min(size, bytes.length - body);
      return { seconds: dataBytes / bytesPerSecond, dataBytes };
    }
    // chunks are padded to an even size
    at = body + size + (size % 2);
  }
  return null;
}
