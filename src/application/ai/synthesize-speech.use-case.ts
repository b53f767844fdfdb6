import { inject, injectable } from 'tsyringe';
import { unitsForTtsCharacters } from '../../domain/billing/units.js';
import { AUDIO_PROVIDER, type AudioProvider, type SpeechFormat } from '../ports/audio-provider.port.js';
import { UsageReservations } from '../billing/usage-reservations.js';
import type { ChatPayment } from './chat-metering.js';
import { paidCall } from './paid-call.js';

/** 4,096 characters of speech is about five minutes of audio: 16 MiB holds it in any format, even `pcm`. */
export const MAX_SPEECH_BYTES = 16 * 1024 * 1024;
export const DEFAULT_VOICE = 'alloy';
export const DEFAULT_SPEECH_FORMAT: SpeechFormat = 'mp3';

export interface SpeechInput {
  readonly text: string;
  readonly voice?: string | undefined;
  readonly format?: SpeechFormat | undefined;
}

/**
 * Text to speech on the platform's audio provider. Metered at 1 unit per 1,000 characters
 * (rounded up, at least 1): the price is known before the call, so the reservation is settled to
 * itself, also when the caller leaves once the text has gone to the provider (decision 0419), or
 * released when the provider fails (ProviderError, PROVIDER_ERROR) or the caller leaves before that.
 */
@injectable()
export class SynthesizeSpeech {
  constructor(
    @inject(AUDIO_PROVIDER) private readonly audio: AudioProvider,
    @inject(UsageReservations) private readonly reservations: UsageReservations,
  ) {}

  async execute(payment: ChatPayment, input: SpeechInput, signal?: AbortSignal): Promise<{ audio: Uint8Array; format: SpeechFormat }> {
    const format = input.format ?? DEFAULT_SPEECH_FORMAT;
    const units = unitsForTtsCharacters(input.text.length);
    const audio = await paidCall(
      { reservations: this.reservations },
      payment,
      units,
      (progress) => this.audio.speech({ text: input.text, voice: input.voice ?? DEFAULT_VOICE, format }, { signal, progress, maxBytes: MAX_SPEECH_BYTES }),
      () => units,
      signal,
    );
    return { audio, format };
  }
}
