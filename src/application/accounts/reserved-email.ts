import { isWalletEmail, walletEmailDomain } from '../../domain/identity/siwe-rules.js';
import { InvalidInputError } from '../errors.js';

/**
 * Refuses an e-mail in the domain wallet sign-in derives its accounts' e-mails in (400
 * VALIDATION_ERROR, nothing changed). Every path that sets an account's e-mail from outside calls
 * it: registration, the settings' e-mail change, an OAuth provider's address.
 */
export function refuseReservedEmail(email: string, appUrl: string): void {
  const host = new URL(appUrl).hostname;
  if (!isWalletEmail(email, host)) return;
  throw new InvalidInputError('VALIDATION_ERROR', `Addresses at ${walletEmailDomain(host)} are reserved for wallet sign-in`, { field: 'email' });
}
