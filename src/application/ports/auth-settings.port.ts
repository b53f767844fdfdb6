import type { InjectionToken } from 'tsyringe';

/** The slice of configuration the account and auth use cases read. */
export interface AuthSettings {
  appUrl: string;
  adminEmails: readonly string[];
  testerEmails: readonly string[];
  referralCredits: number;
}

export const AUTH_SETTINGS: InjectionToken<AuthSettings> = Symbol('AuthSettings');
