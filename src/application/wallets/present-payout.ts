import type { Payout } from '../../domain/wallets/payout.js';

/** What a caller reads of one payout: its status first, the hash as soon as one is recorded. */
export const presentPayout = (p: Payout) => ({
  paymentId: p.id,
  to: p.to,
  amountUnits: p.amount.toString(),
  status: p.status,
  transactionHash: p.transactionHash,
  ...(p.amountCents !== null ? { amountCents: p.amountCents } : {}),
  ...(p.lastError !== null && p.status !== 'confirmed' ? { lastError: p.lastError } : {}),
  statusMessage: STATUS_MESSAGES[p.status],
});

const STATUS_MESSAGES: Record<Payout['status'], string> = {
  pending: 'not broadcast yet; it is retried and will be sent once',
  submitted: 'broadcast and not yet confirmed; it is never sent again, only checked until it is mined',
  confirmed: 'mined',
  failed: 'not paid: refused before broadcast, or reverted on chain',
};
