import { DomainError } from '../../../domain/shared/domain-error.js';

/**
 * The node failed or a transfer reverted (HTTP 502 `UPSTREAM_UNAVAILABLE`). `sent` lists the
 * transfers already mined before the failure, so a partial payout is never hidden.
 */
export class WalletTransferFailedError extends DomainError {
  constructor(sent: readonly { to: string; amount: bigint; transactionHash: string }[], readonly summary: string) {
    super('UPSTREAM_UNAVAILABLE', sent.length === 0 ? 'The wallet RPC node failed; nothing was sent' : `The wallet RPC node failed after ${sent.length} transfer(s)`, {
      sent: sent.map((t) => ({ to: t.to, amount: t.amount.toString(), transactionHash: t.transactionHash })),
    });
  }
}
