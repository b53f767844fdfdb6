/** A PCM WAV file: 8-bit mono at `sampleRate`, `seconds` long (data bytes = seconds × sampleRate), with a LIST chunk before `data` as real encoders write. */
export function wavFile(seconds: number, sampleRate = 1000): Buffer {
  const dataSize = Math.round(seconds * sampleRate);
  const list = Buffer.from('LIST\x04\x00\x00\x00INFO', 'latin1');
  const header = Buffer.alloc(12 + 24);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(4 + 24 + list.length + 8 + dataSize, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate, 28); // byte rate: 1 byte a sample
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  const dataHeader = Buffer.alloc(8);
  dataHeader.write('data', 0, 'latin1');
  dataHeader.writeUInt32LE(dataSize, 4);
  return Buffer.concat([header, list, dataHeader, Buffer.alloc(dataSize, 0x80)]);
}

/** The same file whose header claims a byte rate `factor` times the true one (a decoder plays the samples, not the claim). */
export function wavClaimingShorter(seconds: number, factor: number, sampleRate = 1000): Buffer {
  const wav = wavFile(seconds, sampleRate);
  wav.writeUInt32LE(sampleRate * factor, 28);
  return wav;
}

/**
 * MPEG-2.5 layer III at 8 kbit/s and 8,000 Hz, the lowest rate MP3 has: 72-byte frames of 576
 * samples, 1,000 bytes a second of audio (the frames carry silence). With `id3` an ID3v2 tag first.
 */
export function lowRateMp3(seconds: number, o: { id3?: boolean } = {}): Buffer {
  const frames = Math.round(seconds / 0.072);
  const frame = Buffer.alloc(72);
  frame.set([0xff, 0xe3, 0x18, 0xc4]);
  const tag = o.id3 ? Buffer.concat([Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x0a', 'latin1'), Buffer.alloc(10)]) : Buffer.alloc(0);
  return Buffer.concat([tag, ...Array.from({ length: frames }, () => frame)]);
}
