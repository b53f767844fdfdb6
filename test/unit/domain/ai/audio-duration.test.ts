import { describe, expect, it } from 'vitest';
import { provenAudioSeconds } from '../../../../src/domain/ai/audio-duration.js';
import { mp3DurationSeconds } from '../../../../src/domain/ai/mp3-duration.js';
import { wavDurationSeconds } from '../../../../src/domain/ai/wav-duration.js';
import { lowRateMp3, wavClaimingShorter, wavFile } from '../../../support/ai/wav.js';

describe('mp3DurationSeconds', () => {
  it('when MPEG frames make up the file, then their samples over their rate are its length, after an ID3v2 tag too', () => {
    expect(mp3DurationSeconds(lowRateMp3(600))).toBeCloseTo(600, 0);
    expect(mp3DurationSeconds(lowRateMp3(30, { id3: true }))).toBeCloseTo(30, 0);
  });

  it('when the bytes are mostly not frames (another format, or frames hiding it), then null', () => {
    expect(mp3DurationSeconds(Buffer.from('OggS'.repeat(5_000), 'latin1'))).toBeNull();
    expect(mp3DurationSeconds(Buffer.concat([lowRateMp3(10), Buffer.alloc(5_000, 7)]))).toBeNull();
    expect(mp3DurationSeconds(new Uint8Array(0))).toBeNull();
  });
});

describe('wavDurationSeconds', () => {
  it('when the header claims a higher byte rate than its samples play at, then the samples decide', () => {
    expect(wavDurationSeconds(wavClaimingShorter(100, 50))).toBe(100);
  });
});

describe('provenAudioSeconds', () => {
  it('when the audio is an uncompressed WAV or MP3 frames, then its playing time; anything else null', () => {
    expect(provenAudioSeconds(wavFile(90))).toBe(90);
    expect(provenAudioSeconds(lowRateMp3(600))).toBeCloseTo(600, 0);
    expect(provenAudioSeconds(Buffer.from('fLaC'.repeat(1_000), 'latin1'))).toBeNull();
  });

  it('when a WAV holds much besides its samples, then null: the rest could be audio of another kind', () => {
    const wav = wavFile(5);
    expect(provenAudioSeconds(Buffer.concat([wav, Buffer.alloc(50_000)]))).toBeNull();
  });
});
