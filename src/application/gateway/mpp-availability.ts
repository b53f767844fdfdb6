import type { Logger } from '../ports/logger.port.js';
import type { MppPaymentVerifier } from '../ports/mpp-payment-verifier.port.js';
import type { GatewaySettings } from '../ports/gateway-settings.port.js';
import type { MppAvailability, OfferedMpp } from '../ports/mpp-availability.port.js';
import type { TransferAuthorizationChain } from '../ports/transfer-authorization-chain.port.js';

/**
 * Whether MPP is offered: configured, and its RPC serves MPP_CHAIN_ID. The chain id is asked at
 * start (`check`) and never stops the start: a mismatch is logged and MPP is withdrawn for the
 * process's life; an RPC that does not answer leaves the question open, MPP is not offered while
 * it is (a payment could not be verified anyway), and the next request asks again.
 */
export class ChainCheckedMppAvailability implements MppAvailability {
  private state: 'unknown' | 'ok' | 'mismatch' = 'unknown';
  private pending: Promise<boolean> | null = null;

  constructor(
    private readonly settings: GatewaySettings,
    private readonly log: Logger,
    /** Absent when MPP is not configured. */
    private readonly verifier: MppPaymentVerifier | null,
    /** Absent without MPP_SETTLER_PRIVATE_KEY: no EIP-3009 payment is offered. */
    private readonly authorizations: TransferAuthorizationChain | null = null,
  ) {}

  async offered(): Promise<boolean> {
    if (!this.settings.mpp || !this.verifier) return false;
    if (this.state !== 'unknown') return this.state === 'ok';
    return this.check();
  }

  /** The terms and the chain's readers while MPP is offered, else null. */
  async current(): Promise<OfferedMpp | null> {
    return (await this.offered()) ? { terms: this.settings.mpp!, verifier: this.verifier!, authorizations: this.authorizations } : null;
  }

  /** Asks the RPC for its chain id once at a time; resolves whether MPP is offered. Never rejects. */
  check(): Promise<boolean> {
    const terms = this.settings.mpp;
    const verifier = this.verifier;
    if (!terms || !verifier) return Promise.resolve(false);
    this.pending ??= (async () => {
      try {
        const id = await verifier.chainId();
        if (id === terms.chainId) {
          this.state = 'ok';
          return true;
        }
        this.state = 'mismatch';
        this.log.error({ expected: terms.chainId, served: id }, 'MPP_RPC_URL serves another chain than MPP_CHAIN_ID: MPP payments are not offered');
        return false;
      } catch (err) {
        this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'MPP RPC did not answer the chain id: MPP not offered for now');
        return false;
      } finally {
        this.pending = null;
      }
    })();
    return this.pending;
  }
}
