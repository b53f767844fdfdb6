import type { InjectionToken } from 'tsyringe';

/** How account mail leaves the service (from SMTP_URL and the unsafe defaults, CONTRACT.md section 2). */
export interface MailDeliverySettings {
  /** An SMTP relay is configured: a delivery job is queued with each mail. */
  relay: boolean;
  /** The development channel: the mail is printed whole to the log once committed. */
  printToLog: boolean;
}

export const MAIL_DELIVERY_SETTINGS: InjectionToken<MailDeliverySettings> = Symbol('MailDeliverySettings');
