import { MalformedSiweMessageError, WalletSignInRejectedError } from './identity.errors.js';

/** The chain wallet sign-in accepts: Base (0x2105). */
export const SIWE_CHAIN_ID = 8453;
/** A nonce from GET /api/auth/nonce lives this long, and is used once. */
export const WALLET_NONCE_TTL_MS = 10 * 60 * 1000;

/** The EIP-4361 fields sign-in reads, as a parser found them (absent: undefined). */
export interface SiweFields {
  domain?: string | undefined;
  address?: string | undefined;
  uri?: string | undefined;
  version?: string | undefined;
  chainId?: number | undefined;
  nonce?: string | undefined;
  issuedAt?: Date | undefined;
  expirationTime?: Date | undefined;
  notBefore?: Date | undefined;
  resources?: readonly string[] | undefined;
}

export interface SiweMessage {
  domain: string;
  /** lowercase 0x + 40 hex */
  address: string;
  uri: string;
  chainId: number;
  nonce: string;
  issuedAt: Date;
  expirationTime?: Date | undefined;
  notBefore?: Date | undefined;
}

const validDate = (d: Date | undefined): boolean => d === undefined || !Number.isNaN(d.getTime());

/** The fields every sign-in message must carry; missing or unreadable ones make it a 400. */
export function requireSiweFields(f: SiweFields): SiweMessage {
  const missing = (['domain', 'address', 'uri', 'version', 'chainId', 'nonce', 'issuedAt'] as const).filter((k) => f[k] === undefined || f[k] === '');
  if (missing.length > 0) throw new MalformedSiweMessageError(`missing ${missing.join(', ')}`);
  if (f.version !== '1') throw new MalformedSiweMessageError('version must be 1');
  if (!/^0x[0-9a-fA-F]{40}$/.test(f.address!)) throw new MalformedSiweMessageError('bad address');
  if (!validDate(f.issuedAt) || !validDate(f.expirationTime) || !validDate(f.notBefore)) throw new MalformedSiweMessageError('bad timestamp');
  return {
    domain: f.domain!,
    address: f.address!.toLowerCase(),
    uri: f.uri!,
    chainId: f.chainId!,
    nonce: f.nonce!,
    issuedAt: f.issuedAt!,
    expirationTime: f.expirationTime,
    notBefore: f.notBefore,
  };
}

/** Allowed drift of the signer's clock for `Issued At` in the future. */
const CLOCK_SKEW_MS = 60_000;

/**
 * What the message must say to be accepted here, once its nonce was consumed: our domain (the
 * APP_URL host, port included), Base, and a validity window around `now`. The signature is checked
 * after these (a network call, not worth making for a message that is refused anyway).
 */
export function checkSiweClaims(m: SiweMessage, expected: { domain: string; now: Date }): void {
  const now = expected.now.getTime();
  if (m.domain !== expected.domain) throw new WalletSignInRejectedError('domain', `The message is for ${m.domain}, not ${expected.domain}`);
  if (m.chainId !== SIWE_CHAIN_ID) throw new WalletSignInRejectedError('chain', `The message is for chain ${m.chainId}; sign in on Base (${SIWE_CHAIN_ID})`);
  if (m.issuedAt.getTime() > now + CLOCK_SKEW_MS) throw new WalletSignInRejectedError('issued_at', 'The message is issued in the future');
  if (m.expirationTime && m.expirationTime.getTime() <= now) throw new WalletSignInRejectedError('expired', 'The message has expired');
  if (m.notBefore && m.notBefore.getTime() > now) throw new WalletSignInRejectedError('not_before', 'The message is not valid yet');
}

/** The domain wallet-derived e-mails live in: `wallet.<APP_URL hostname>`, reserved for them. */
export const walletEmailDomain = (appHostname: string): string => `wallet.${appHostname.toLowerCase()}`;

/**
 * The e-mail an account created by a wallet carries: `<address>@wallet.<APP_URL hostname>`,
 * lowercase. It is no mailbox; it makes the account one row like every other. `collision` (random)
 * gives `<address>+<collision>@…`, for when a row made before the domain was reserved holds the
 * plain one: the wallet's account is found by its address, never by this e-mail.
 */
export const walletEmail = (address: string, appHostname: string, collision?: string): string =>
  `${address.toLowerCase()}${collision ? `+${collision}` : ''}@${walletEmailDomain(appHostname)}`;

/**
 * Whether `email` is in the reserved wallet domain. Nobody registers, changes to, or signs in
 * through a provider with such an address: it would take the e-mail a wallet's first sign-in derives.
 */
export const isWalletEmail = (email: string, appHostname: string): boolean =>
  email.trim().toLowerCase().endsWith(`@${walletEmailDomain(appHostname)}`);
