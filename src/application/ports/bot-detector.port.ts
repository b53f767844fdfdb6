import type { InjectionToken } from 'tsyringe';

export interface BotCheck {
  /** The challenge token the browser widget produced; undefined when the client sent none. */
  token: string | undefined;
  /** The client's IP, passed to the verifier as a hint. */
  ip: string;
}

/** Tells a human from a script on the unauthenticated account endpoints (register, forgot-password). */
export interface BotDetector {
  /**
   * true: the token was verified (or no verifier is configured).
   * false: the token is missing or the verifier rejected it; the caller refuses the request.
   * Throws UpstreamUnavailableError when the verifier cannot give a verdict (unreachable,
   * timeout, server error): we fail closed, so an outage of the verifier blocks sign-ups
   * rather than letting bots through.
   */
  isHuman(input: BotCheck): Promise<boolean>;
}
export const BOT_DETECTOR: InjectionToken<BotDetector> = Symbol('BotDetector');
