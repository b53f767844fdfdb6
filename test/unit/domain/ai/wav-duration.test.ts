import { describe, expect, it } from 'vitest';
import { wavDurationSeconds } from '../../../../src/domain/ai/wav-duration.js';
import { wavFile } from '../../../support/ai/wav.js';

describe('wavDurationSeconds', () => {
  it('when the bytes are a PCM WAV file, then the duration is the data size over the byte rate, past other chunks', () => {
    expect(wavDurationSeconds(wavFile(125))).toBe(125);
    expect(wavDurationSeconds(wavFile(2.5, 8000))).toBe(2.5);
  });

  it('when the data chunk claims more bytes than are present (a streamed header), then only the bytes present count', () => {
    const wav = wavFile(10);
    wav.writeUInt32LE(0xffffffff, wav.indexOf('data', 0, 'latin1') + 4);
    expect(wavDurationSeconds(wav)).toBe(10);
  });

  it('when the bytes are not a WAV file, or it is cut before its data, then null', () => {
    expect(wavDurationSeconds(Buffer.from('ID3\x04\x00 not a wav at all', 'latin1'))).toBeNull();
    expect(wavDurationSeconds(new Uint8Array(0))).toBeNull();
    expect(wavDurationSeconds(wavFile(1).subarray(0, 20))).toBeNull();
    const noFmt = Buffer.concat([Buffer.from('RIFF\x00\x00\x00\x00WAVEdata\x04\x00\x00\x00', 'latin1'), Buffer.alloc(4)]);
    expect(wavDurationSeconds(noFmt)).toBeNull();
  });
});
