import type { InjectionToken } from 'tsyringe';
import type { TokenDomain } from '../../domain/gateway/gateway-discovery.js';

/** The MPP token's EIP-712 domain, read from the chain: what an EIP-3009 signer signs over. */
export interface TokenDomainReader {
  /**
   * `name()` and `version()` of MPP_TOKEN_ADDRESS, read once and kept (a token's domain does not
   * change); a failed read is not kept. A node that fails: UpstreamUnavailableError.
   */
  read(): Promise<TokenDomain>;
}
export const TOKEN_DOMAIN_READER: InjectionToken<TokenDomainReader> = Symbol('TokenDomainReader');
