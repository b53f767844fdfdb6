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
