import { provenAudioSeconds } from '../ai/audio-duration.js';
import type { GatewayPluginId } from './gateway-plugin-id.js';

/**
 * How large a prepaid gateway call may be (CONTRACT.md section 7 "prepaid calls"): one fixed price
 * buys one call of bounded size, so a cent cannot buy a million output tokens or a megabyte of
 * prompt. Subscribers are metered by what they use and are not bounded here.
 */
export interface PrepaidBounds {
  /** GATEWAY_PREPAID_MAX_TOKENS: the most `max_tokens` a prepaid call may ask for, and what it gets when it names none. */
  readonly maxTokens: number;
  /** GATEWAY_PREPAID_MAX_INPUT_CHARS: the most characters of prompt (`prompt`, every message's text, the agent's task). */
  readonly maxInputChars: number;
  /** The agent plugin's default steps: a prepaid task makes at most this many model calls. */
  readonly maxAgentSteps: number;
  /** GATEWAY_PREPAID_MAX_AUDIO_SECONDS: the longest audio a prepaid `stt` call transcribes. */
  readonly maxAudioSeconds: number;
}

/** One bound a body passes: the field and what it says, for a 400 VALIDATION_ERROR. */
export interface PrepaidBoundBreach {
  readonly path: string;
  readonly message: string;
}

type Body = Readonly<Record<string, unknown>>;

const promptChars = (body: Body): number => {
  if (typeof body.prompt === 'string') return body.prompt.length;
  if (!Array.isArray(body.messages)) return 0;
  return body.messages.reduce((n: number, m: { content?: unknown }) => n + (typeof m?.content === 'string' ? m.content.length : 0), 0);
};

/**
 * The first bound `input` (the body the edge schema parsed) passes for a prepaid call of `plugin`,
 * or null when it is within every bound. `tts` is bounded by its schema alone. `stt` is bounded by
 * how long its audio plays, since the provider bills by the minute: a byte bound let a low-rate
 * file hold many times the minutes its price covers (decision 0391).
 */
export function prepaidBoundBreach(plugin: GatewayPluginId, input: unknown, bounds: PrepaidBounds): PrepaidBoundBreach | null {
  const body = (input ?? {}) as Body;
  if (plugin === 'generate-text') {
    const maxTokens = body.max_tokens;
    if (typeof maxTokens === 'number' && maxTokens > bounds.maxTokens) {
      return { path: 'max_tokens', message: `A prepaid call asks for at most ${bounds.maxTokens} max_tokens (GATEWAY_PREPAID_MAX_TOKENS)` };
    }
    const chars = promptChars(body);
    const path = typeof body.prompt === 'string' ? 'prompt' : 'messages';
    if (chars > bounds.maxInputChars) {
      return { path, message: `A prepaid call's prompt is at most ${bounds.maxInputChars} characters (GATEWAY_PREPAID_MAX_INPUT_CHARS); this one has ${chars}` };
    }
  }
  if (plugin === 'agent') {
    if (typeof body.maxSteps === 'number' && body.maxSteps > bounds.maxAgentSteps) {
      return { path: 'maxSteps', message: `A prepaid agent task takes at most ${bounds.maxAgentSteps} steps` };
    }
    if (typeof body.task === 'string' && body.task.length > bounds.maxInputChars) {
      return { path: 'task', message: `A prepaid task is at most ${bounds.maxInputChars} characters (GATEWAY_PREPAID_MAX_INPUT_CHARS); this one has ${body.task.length}` };
    }
  }
  if (plugin === 'stt' && typeof body.audio === 'string') {
    const seconds = provenAudioSeconds(Buffer.from(body.audio, 'base64'));
    if (seconds === null) {
      return { path: 'audio', message: 'A prepaid stt call takes WAV (uncompressed) or MP3 audio, whose length can be read before it is paid for' };
    }
    if (seconds > bounds.maxAudioSeconds) {
      return { path: 'audio', message: `A prepaid stt call transcribes at most ${bounds.maxAudioSeconds} seconds of audio (GATEWAY_PREPAID_MAX_AUDIO_SECONDS); this one plays ${Math.ceil(seconds)}` };
    }
  }
  return null;
}
