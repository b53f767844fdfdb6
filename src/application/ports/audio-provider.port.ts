import type { InjectionToken } from 'tsyringe';
import type { ProviderCallOptions } from './ai-provider.port.js';

/** The audio formats OpenAI's speech endpoint produces (its `response_format`). */
export type SpeechFormat = 'mp3' | 'opus' | 'aac' | 'flac' | 'wav' | 'pcm';

export interface SpeechRequest {
  readonly text: string;
  readonly voice: string;
  readonly format: SpeechFormat;
}

export interface TranscriptionRequest {
  readonly audio: Uint8Array;
  /** The file's type as its extension (`wav`, `mp3`, ...): the vendor reads the format from the file name. */
  readonly format: string;
  /** ISO-639-1, when the caller knows it. */
  readonly language?: string;
}

export interface Transcription {
  readonly text: string;
  /** Seconds of audio as the vendor measured them; absent when it did not say. */
  readonly durationSeconds?: number;
}

/**
 * Speech synthesis and transcription, OpenAI's audio wire format (`POST /audio/speech`,
 * `POST /audio/transcriptions`). Rejects like AiProvider: ProviderUnavailableError without a key,
 * ProviderError for anything the vendor or network does wrong (timeout included), the signal's
 * reason when the caller aborted.
 */
export interface AudioProvider {
  readonly name: string;
  isConfigured(): boolean;
  /** The encoded audio, at most `maxBytes` (a larger answer is the vendor's `bad_response`). */
  speech(request: SpeechRequest, opts: ProviderCallOptions & { readonly maxBytes: number }): Promise<Uint8Array>;
  transcribe(request: TranscriptionRequest, opts?: ProviderCallOptions): Promise<Transcription>;
}
export const AUDIO_PROVIDER: InjectionToken<AudioProvider> = Symbol('AudioProvider');
