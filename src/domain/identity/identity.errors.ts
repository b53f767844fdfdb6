import { DomainError } from '../shared/domain-error.js';

/**
 * A wallet sign-in that proves nothing: an unknown, used or expired nonce, another domain or
 * chain, a message outside its validity window, or a signature not by the message's address.
 * The reason is told (the signer made the message and knows it anyway); no session is set.
 */
export class WalletSignInRejectedError extends DomainError {
  constructor(readonly reason: string, message: string) {
    super('WALLET_SIGN_IN_REJECTED', message, { reason });
  }
}

/** A text that is not an EIP-4361 message with the fields sign-in needs. */
export class MalformedSiweMessageError extends DomainError {
  constructor(missing: string) {
    super('INVALID_SIWE_MESSAGE', `Not a valid SIWE message (${missing})`);
  }
}

/** A feature that needs a chain setting that is not configured (BASE_RPC_URL, TOKEN_GATE_ADDRESS). */
export class ChainNotConfiguredError extends DomainError {
  constructor(what: string) {
    super('CHAIN_NOT_CONFIGURED', `${what} is not configured on this server`);
  }
}
