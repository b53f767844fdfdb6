import type { BotCheck, BotDetector } from '../../../application/ports/bot-detector.port.js';

/**
 * The default when no TURNSTILE_SECRET_KEY is configured (development, tests, self-hosting
 * without Cloudflare): every caller counts as human, so the forms work without a widget.
 */
export class AllowAllBotDetector implements BotDetector {
  async isHuman(_input: BotCheck): Promise<boolean> {
    return true;
  }
}
