import { decodeEventLog, parseAbiItem, TransactionReceiptNotFoundError, type PublicClient } from 'viem';
import { MppPaymentRejectedError } from '../../../application/errors.js';
import type { MppPayerShare, MppPaymentExpectation, MppPaymentVerifier, VerifiedMppPayment } from '../../../application/ports/mpp-payment-verifier.port.js';
import { rpcClient, rpcRead } from './rpc-client.js';

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const UPSTREAM = 'MPP RPC';
/**
 * How far a block's time may lag this service's clock and still count as after the challenge. A
 * block's timestamp is the producer's clock in whole seconds, not ours: anvil's lags the wall clock
 * by a second after an idle spell (and a loaded test run refused every payment of a file for it),
 * and a real chain's sequencer is another machine. An earlier payment cannot be reused anyway: a
 * transaction pays one challenge (TX_USED) and only with its payer's signature of the nonce.
 */
const CHAIN_CLOCK_SKEW_S = 30n;

/**
 * Reads one ERC-20 payment on chain with viem. Every read goes to the node (cacheTime 0): a
 * cached block number would count confirmations the chain does not have yet. Only the Transfer
 * logs emitted by the configured token contract to the recipient count, summed per `from` (the
 * payer is the logs' sender, not the transaction's: a contract may pay on someone's behalf).
 */
export class ViemMppPaymentVerifier implements MppPaymentVerifier {
  private readonly client: PublicClient;

  constructor(rpcUrl: string, timeoutMs: number) {
    this.client = rpcClient(rpcUrl, timeoutMs);
  }

  async chainId(): Promise<number> {
    return rpcRead(UPSTREAM, () => this.client.getChainId());
  }

  async verify(e: MppPaymentExpectation): Promise<VerifiedMppPayment> {
    const receipt = await rpcRead(UPSTREAM, async () => {
      try {
        return await this.client.getTransactionReceipt({ hash: e.transaction });
      } catch (err) {
        if (err instanceof TransactionReceiptNotFoundError) return null;
        throw err;
      }
    });
    if (!receipt) throw new MppPaymentRejectedError('TX_NOT_FOUND', 'The transaction is not on chain (yet)');
    if (receipt.status !== 'success') throw new MppPaymentRejectedError('TX_FAILED', 'The transaction failed on chain');

    const [latest, block] = await rpcRead(UPSTREAM, () =>
      Promise.all([this.client.getBlockNumber({ cacheTime: 0 }), this.client.getBlock({ blockNumber: receipt.blockNumber })]),
    );
    const confirmations = latest - receipt.blockNumber + 1n;
    if (confirmations < BigInt(e.confirmations)) {
      throw new MppPaymentRejectedError('NOT_ENOUGH_CONFIRMATIONS', `The payment has ${confirmations} of ${e.confirmations} confirmations`);
    }
    const blockTime = new Date(Number(block.timestamp) * 1000);
    // block times are whole seconds: a payment in the challenge's own second counts, and so does one
    // in a block whose clock lags ours by up to CHAIN_CLOCK_SKEW_S
    if (block.timestamp + CHAIN_CLOCK_SKEW_S < BigInt(Math.floor(e.notBefore.getTime() / 1000))) {
      throw new MppPaymentRejectedError('PAID_BEFORE_CHALLENGE', 'The payment was made before the challenge was issued');
    }

    const token = e.token.toLowerCase();
    const recipient = e.recipient.toLowerCase();
    // per sender: one transaction may carry several payers' transfers (a router, a batch), and
    // none of them paid what another did
    const paidBy = new Map<string, MppPayerShare>();
    for (const log of receipt.logs) {
      if (log.address.toLowerCase() !== token) continue;
      let decoded;
      try {
        decoded = decodeEventLog({ abi: [TRANSFER], data: log.data, topics: log.topics });
      } catch {
        continue; // another event of the token (Approval...)
      }
      if (decoded.args.to.toLowerCase() !== recipient) continue;
      const from = decoded.args.from.toLowerCase();
      const before = paidBy.get(from);
      paidBy.set(from, { payer: before?.payer ?? decoded.args.from, amount: (before?.amount ?? 0n) + decoded.args.value });
    }
    if (paidBy.size === 0) throw new MppPaymentRejectedError('NO_TRANSFER_TO_RECIPIENT', 'The transaction moved none of the token to the recipient');
    const shares = [...paidBy.values()];
    const payers = shares.filter((s) => s.amount >= e.minAmount);
    if (payers.length === 0) {
      const most = shares.reduce((a, s) => (s.amount > a ? s.amount : a), 0n);
      throw new MppPaymentRejectedError('UNDERPAID', `The payment is ${most} base units from one sender, ${e.minAmount} are due`);
    }
    return { payers, blockNumber: receipt.blockNumber, blockTime };
  }
}
