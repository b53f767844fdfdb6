import { randomBytes } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { sttBody, ttsBody } from '../../../src/application/gateway/plugin-bodies.js';
import { MAX_SPEECH_BYTES } from '../../../src/application/ai/synthesize-speech.use-case.js';
import { patientBreakers, reservationsOf, unitsUsed } from '../../support/ai/chat-fixtures.js';
import { startFakeOpenAiAudioServer } from '../../support/ai/fake-openai-audio-server.js';
import { wavFile } from '../../support/ai/wav.js';
import { callWith, meteredPayer, pluginOf, prepaidPayer } from '../../support/gateway-payers.js';
import { signUpAndIn } from '../../support/http-client.js';
import { startTestApp } from '../../support/test-app.js';

/**
 * The tts and stt plugins in-process, on a real database and a local server speaking OpenAI's
 * audio wire formats (JSON in and audio bytes out for speech; multipart/form-data in and
 * `verbose_json` out for transcription). Metering: tts 1 unit per 1,000 characters, stt 1 unit
 * per started minute (reserved from a WAV header or the size, settled to the provider's duration).
 */
const AUDIO_KEY = 'sk-openai-audio-platform';
const audio = await startFakeOpenAiAudioServer({ apiKey: AUDIO_KEY });
afterAll(() => audio.close());
const { app, container, infra } = await startTestApp({
  env: { OPENAI_API_KEY: AUDIO_KEY, OPENAI_BASE_URL: audio.baseUrl, AI_TIMEOUT_MS: '1500' },
  override: patientBreakers,
});
const owner = infra.pools.owner;
const tts = pluginOf(container, 'tts');
const stt = pluginOf(container, 'stt');

beforeEach(() => {
  audio.setBehaviour({ kind: 'reply' });
  audio.requests.length = 0;
});

async function subscriber() {
  const user = await signUpAndIn(app);
  return { user, payer: await meteredPayer(container, owner, user) };
}

const exhaust = (userId: string) => owner.query(`insert into daily_usage (user_id, day, used_units) values ($1, (now() at time zone 'utc')::date, 600)`, [userId]);

describe('tts plugin', () => {
  it('when a subscriber asks for speech, then the message carries the audio as base64 with its format, and 1 unit per started 1,000 characters is reserved then settled', async () => {
    audio.setBehaviour({ kind: 'reply', audioBytes: 3000 });
    const { user, payer } = await subscriber();
    const text = 'a'.repeat(2500);
    const result = await tts.run(callWith(payer, ttsBody.parse({ text })));
    const message = result.message as { audio: string; format: string };
    expect(Object.keys(message).sort()).toEqual(['audio', 'format']);
    expect(message.format).toBe('mp3');
    expect(Buffer.from(message.audio, 'base64')).toHaveLength(3000);
    expect(audio.requests[0]).toMatchObject({ path: '/v1/audio/speech', json: { model: 'tts-1', input: text, voice: 'alloy', response_format: 'mp3' } });
    expect(audio.requests[0]!.headers.authorization).toBe(`Bearer ${AUDIO_KEY}`);
    expect(await reservationsOf(owner, user.id)).toEqual([{ units: 3, status: 'settled', settled_units: 3 }]);
    expect((await unitsUsed(container, user.id)).used).toBe(3);
  });

  it('when the payer paid in advance, then voice and format are passed on and nothing is metered', async () => {
    const user = await signUpAndIn(app);
    const result = await tts.run(callWith(prepaidPayer('label', user.id), ttsBody.parse({ text: 'Hello', voice: 'nova', format: 'wav' })));
    expect((result.message as { format: string }).format).toBe('wav');
    expect(audio.requests[0]!.json).toMatchObject({ voice: 'nova', response_format: 'wav' });
    expect(await reservationsOf(owner, user.id)).toEqual([]);
    expect((await unitsUsed(container, user.id)).used).toBe(0);
  });

  it("when the subscriber's units are spent, then USAGE_EXHAUSTED and no provider call", async () => {
    const { user, payer } = await subscriber();
    await exhaust(user.id);
    await expect(tts.run(callWith(payer, ttsBody.parse({ text: 'Hello' })))).rejects.toMatchObject({ code: 'USAGE_EXHAUSTED' });
    expect(audio.requests).toEqual([]);
  });

  it('when the provider fails or does not answer in time, then PROVIDER_ERROR and the reservation is released', async () => {
    const { user, payer } = await subscriber();
    audio.setBehaviour({ kind: 'error', status: 500 });
    await expect(tts.run(callWith(payer, ttsBody.parse({ text: 'Hello' })))).rejects.toMatchObject({ code: 'PROVIDER_ERROR', details: { kind: 'http', status: 500 } });
    audio.setBehaviour({ kind: 'hang' });
    await expect(tts.run(callWith(payer, ttsBody.parse({ text: 'Hello' })))).rejects.toMatchObject({ code: 'PROVIDER_ERROR', details: { kind: 'timeout' } });
    expect((await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['released', 'released']);
    expect((await unitsUsed(container, user.id)).used).toBe(0);
  });

  it('when the provider answers more audio than the bound, then PROVIDER_ERROR (bad_response) and the reservation is released', async () => {
    const { user, payer } = await subscriber();
    audio.setBehaviour({ kind: 'reply', audioBytes: MAX_SPEECH_BYTES + 1 });
    await expect(tts.run(callWith(payer, ttsBody.parse({ text: 'Hello' })))).rejects.toMatchObject({ code: 'PROVIDER_ERROR', details: { kind: 'bad_response' } });
    expect((await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['released']);
  });

  it('when the caller leaves once the provider has the text, then CLIENT_CLOSED_REQUEST and the text\'s units are charged (decision 0419)', async () => {
    const { user, payer } = await subscriber();
    audio.setBehaviour({ kind: 'hang' });
    const leave = new AbortController();
    setTimeout(() => leave.abort(), 100);
    await expect(tts.run(callWith(payer, ttsBody.parse({ text: 'Hello' }), leave.signal))).rejects.toMatchObject({ code: 'CLIENT_CLOSED_REQUEST' });
    expect(audio.requests).toHaveLength(1);
    expect(await reservationsOf(owner, user.id)).toMatchObject([{ status: 'settled', settled_units: 1 }]);
  });
});

describe('stt plugin', () => {
  const b64 = (b: Buffer) => b.toString('base64');

  it('when a subscriber sends WAV audio, then the transcript is the message, the header\'s minutes are reserved and the provider\'s duration settled', async () => {
    audio.setBehaviour({ kind: 'reply', text: 'Two minutes of silence.', duration: 61.2 });
    const { user, payer } = await subscriber();
    const wav = wavFile(125);
    const result = await stt.run(callWith(payer, sttBody.parse({ audio: b64(wav), language: 'en' })));
    expect(result).toEqual({ message: 'Two minutes of silence.' });
    const sent = audio.requests[0]!;
    expect(sent.path).toBe('/v1/audio/transcriptions');
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.form).toEqual({ fields: { model: 'whisper-1', response_format: 'verbose_json', language: 'en' }, file: { name: 'audio.wav', type: 'audio/wav', size: wav.length } });
    // 125 s: three started minutes reserved; the provider measured 61.2 s: two
    expect(await reservationsOf(owner, user.id)).toEqual([{ units: 3, status: 'settled', settled_units: 2 }]);
  });

  it('when compressed audio is sent, then its length is estimated from the size and settled to the provider\'s duration, or to the estimate when it reports none', async () => {
    const { user, payer } = await subscriber();
    audio.setBehaviour({ kind: 'reply', duration: 130 });
    await stt.run(callWith(payer, sttBody.parse({ audio: b64(randomBytes(40_000)), format: 'mp3' })));
    expect(audio.requests[0]!.form!.file).toMatchObject({ name: 'audio.mp3', type: 'audio/mpeg' });
    audio.setBehaviour({ kind: 'reply', duration: null });
    await stt.run(callWith(payer, sttBody.parse({ audio: b64(randomBytes(600_000)), format: 'ogg' })));
    // 40 kB at 16 kB/s: 1 unit held, 130 s measured: 3; 600 kB: 37.5 s, 1 unit held and kept
    expect(await reservationsOf(owner, user.id)).toEqual([
      { units: 1, status: 'settled', settled_units: 3 },
      { units: 1, status: 'settled', settled_units: 1 },
    ]);
  });

  it('when the payer paid in advance, then nothing is metered', async () => {
    const user = await signUpAndIn(app);
    const result = await stt.run(callWith(prepaidPayer('label', user.id), sttBody.parse({ audio: b64(wavFile(3)) })));
    expect(result.message).toBe('Hello from the audio.');
    expect(await reservationsOf(owner, user.id)).toEqual([]);
  });

  it("when the subscriber's units are spent, then USAGE_EXHAUSTED and no provider call", async () => {
    const { user, payer } = await subscriber();
    await exhaust(user.id);
    await expect(stt.run(callWith(payer, sttBody.parse({ audio: b64(wavFile(3)) })))).rejects.toMatchObject({ code: 'USAGE_EXHAUSTED' });
    expect(audio.requests).toEqual([]);
  });

  it('when the provider fails or does not answer in time, then PROVIDER_ERROR and the reservation is released', async () => {
    const { user, payer } = await subscriber();
    audio.setBehaviour({ kind: 'error', status: 503 });
    await expect(stt.run(callWith(payer, sttBody.parse({ audio: b64(wavFile(3)) })))).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
    audio.setBehaviour({ kind: 'hang' });
    await expect(stt.run(callWith(payer, sttBody.parse({ audio: b64(wavFile(3)) })))).rejects.toMatchObject({ code: 'PROVIDER_ERROR', details: { kind: 'timeout' } });
    expect((await reservationsOf(owner, user.id)).map((r) => r.status)).toEqual(['released', 'released']);
    expect((await unitsUsed(container, user.id)).used).toBe(0);
  });

  it('when the base64 decodes to no bytes, then VALIDATION_ERROR before anything is reserved or sent', async () => {
    const { user, payer } = await subscriber();
    await expect(stt.run(callWith(payer, sttBody.parse({ audio: 'A' })))).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(audio.requests).toEqual([]);
    expect(await reservationsOf(owner, user.id)).toEqual([]);
  });
});

describe('audio plugins without OPENAI_API_KEY', () => {
  it('when no audio provider is configured, then PROVIDER_UNAVAILABLE, nothing is sent and the reservation is released', async () => {
    const bare = await startTestApp({ env: { OPENAI_BASE_URL: audio.baseUrl } });
    const user = await signUpAndIn(bare.app);
    const payer = await meteredPayer(bare.container, bare.infra.pools.owner, user);
    await expect(pluginOf(bare.container, 'tts').run(callWith(payer, ttsBody.parse({ text: 'Hello' })))).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    await expect(pluginOf(bare.container, 'stt').run(callWith(payer, sttBody.parse({ audio: wavFile(1).toString('base64') })))).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    expect(audio.requests).toEqual([]);
    expect((await reservationsOf(bare.infra.pools.owner, user.id)).map((r) => r.status)).toEqual(['released', 'released']);
  });
});
