import { inject, injectable } from 'tsyringe';
import { wavDurationSeconds } from '../../domain/ai/wav-duration.js';
import { unitsForSttSeconds } from '../../domain/billing/units.js';
import { AUDIO_PROVIDER, type AudioProvider } from '../ports/audio-provider.port.js';
import { UsageReservations } from '../billing/usage-reservations.js';
import type { ChatPayment } from './chat-metering.js';
import { paidCall } from './paid-call.js';

/**
 * Compressed audio's length cannot be read without decoding it: estimated at 128 kbit/s (16,000
 * bytes a second, a common MP3 rate). Lower rates hold more minutes per byte; the settlement to the
 * provider's measured duration corrects the estimate either way.
 */
const ESTIMATED_BYTES_PER_SECOND = 16_000;

export interface TranscriptionInput {
  readonly audio: Uint8Array;
  readonly format?: string | undefined;
  readonly language?: string | undefined;
}

/**
 * Speech to text on the platform's audio provider. Metered at 1 unit per started minute: the
 * reservation is the duration read from a WAV header (exact) or estimated from the size, and it
 * settles to the duration the provider reports (`verbose_json`), or to the estimate when it sends
 * none, or when the caller leaves once the audio has gone to the provider (decision 0419).
 * Released when the provider fails or the caller leaves before that.
 */
@injectable()
export class TranscribeAudio {
  constructor(
    @inject(AUDIO_PROVIDER) private readonly audio: AudioProvider,
    @inject(UsageReservations) private readonly reservations: UsageReservations,
  ) {}

  async execute(payment: ChatPayment, input: TranscriptionInput, signal?: AbortSignal): Promise<{ text: string; durationSeconds: number }> {
    const wav = wavDurationSeconds(input.audio);
    const estimatedSeconds = wav ?? input.audio.byteLength / ESTIMATED_BYTES_PER_SECOND;
    const format = input.format ?? (wav === null ? 'mp3' : 'wav');
    const result = await paidCall(
      { reservations: this.reservations },
      payment,
      unitsForSttSeconds(estimatedSeconds),
      (progress) => this.audio.transcribe({ audio: input.audio, format, ...(input.language ? { language: input.language } : {}) }, { signal, progress }),
      (t) => unitsForSttSeconds(t.durationSeconds ?? estimatedSeconds),
      signal,
    );
    return { text: result.text, durationSeconds: result.durationSeconds ?? estimatedSeconds };
  }
}
