import type { InjectionToken } from 'tsyringe';

/** One message to one recipient. `text` is always sent; `html`, when given, is its alternative. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Delivers transactional mail (verification, password reset). */
export interface Mailer {
  /**
   * Resolves once the relay (or the outbox, in development) has accepted the message; that is
   * a hand-over, not proof of delivery to the inbox.
   * Throws UpstreamUnavailableError when the relay refuses the message, cannot be reached or
   * does not answer within the adapter's timeout. Never logs the body: it carries single-use
   * tokens (the development outbox mailer is the one documented exception).
   * Call it after the transaction that created the token committed, never inside it.
   */
  send(mail: OutgoingMail): Promise<void>;
}
export const MAILER: InjectionToken<Mailer> = Symbol('Mailer');
