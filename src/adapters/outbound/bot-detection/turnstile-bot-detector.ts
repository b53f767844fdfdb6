import { UpstreamUnavailableError } from '../../../application/errors.js';
import type { BotCheck, BotDetector } from '../../../application/ports/bot-detector.port.js';

export interface TurnstileBotDetectorOptions {
  /** TURNSTILE_SECRET_KEY. */
  secret: string;
  /** TURNSTILE_BASE_URL; tests point it at a local server. */
  baseUrl?: string;
  /** Whole round trip, connect included. */
  timeoutMs?: number;
}

const UPSTREAM = 'bot detection';
/** Cloudflare documents tokens as at most 2048 characters; longer ones cannot be valid. */
const MAX_TOKEN_LENGTH = 2048;
/**
 * Error codes that say our side or Cloudflare's is broken, not that the visitor is a bot: a 403
 * would blame the user for our misconfiguration, so these become "verifier unavailable".
 */
const VERIFIER_FAULTS = new Set(['missing-input-secret', 'invalid-input-secret', 'internal-error']);

interface SiteverifyAnswer {
  success?: unknown;
  'error-codes'?: unknown;
}

/**
 * Cloudflare Turnstile's siteverify protocol. Fails closed: when no verdict can be had
 * (unreachable, timeout, non-2xx, unreadable answer) it throws UpstreamUnavailableError
 * (HTTP 502) instead of letting the request through.
 */
export class TurnstileBotDetector implements BotDetector {
  private readonly endpoint: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: TurnstileBotDetectorOptions) {
    const base = (options.baseUrl ?? 'https://challenges.cloudflare.com').replace(/\/+$/, '');
    this.endpoint = `${base}/turnstile/v0/siteverify`;
    this.timeoutMs = options.timeoutMs ?? 5_000;
  }

  async isHuman({ token, ip }: BotCheck): Promise<boolean> {
    // No call for what cannot pass: saves a round trip and keeps floods off the verifier.
    if (!token || token.length > MAX_TOKEN_LENGTH) return false;

    const form = new URLSearchParams({ secret: this.options.secret, response: token });
    if (ip) form.set('remoteip', ip);

    let answer: SiteverifyAnswer;
    try {
      const res = await fetch(this.endpoint, { method: 'POST', body: form, signal: AbortSignal.timeout(this.timeoutMs) });
      if (!res.ok) {
        await res.body?.cancel();
        throw new UpstreamUnavailableError(UPSTREAM, `${UPSTREAM} answered ${res.status}`);
      }
      answer = (await res.json()) as SiteverifyAnswer;
      if (typeof answer !== 'object' || answer === null) throw new UpstreamUnavailableError(UPSTREAM, `${UPSTREAM} answered no verdict`);
    } catch (err) {
      if (err instanceof UpstreamUnavailableError) throw err;
      const timedOut = err instanceof DOMException && err.name === 'TimeoutError';
      throw new UpstreamUnavailableError(UPSTREAM, timedOut ? `${UPSTREAM} timed out` : undefined, err);
    }

    if (answer.success === true) return true;
    const codes = Array.isArray(answer['error-codes']) ? answer['error-codes'].map(String) : [];
    const fault = codes.find((c) => VERIFIER_FAULTS.has(c));
    if (fault) throw new UpstreamUnavailableError(UPSTREAM, `${UPSTREAM} failed (${fault})`);
    return false;
  }
}
