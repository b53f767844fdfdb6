/**
 * The playing time of a RIFF/WAVE file from its header, without decoding: the `data` chunk's
 * size over the `fmt ` chunk's byte rate. Null when the bytes are not a WAV file this can read
 * (then the caller estimates). A `data` size past the end of the bytes (a header written before
 * the length was known, e.g. 0xFFFFFFFF from a stream) counts only the bytes actually present.
 */
export function wavDurationSeconds(bytes: Uint8Array): number | null {
  if (bytes.length < 12) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return null;
  let byteRate: number | null = null;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ' && body + 12 <= bytes.length) byteRate = view.getUint32(body + 8, true);
    if (id === 'data') {
      if (!byteRate) return null;
      return Math.min(size, bytes.length - body) / byteRate;
    }
    // chunks are padded to an even size
    at = body + size + (size % 2);
  }
  return null;
}
