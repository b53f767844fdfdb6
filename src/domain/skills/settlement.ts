/**
 * A booking's settlement (booking-settlement `simulate_settlement`, and the amount an escrow holds).
 * The artist's payout is the guarantee plus the backend (the share of the door already earned
 * beyond the guarantee, given as an amount); the deposit was paid up front, so the balance due at
 * settlement is payout − deposit, and a deposit above the payout is an overpayment to refund.
 */
export interface BookingTerms {
  guaranteeCents: number;
  backendCents: number;
  depositCents: number;
}

export interface Settlement extends BookingTerms {
  payoutCents: number;
  balanceDueCents: number;
  refundDueCents: number;
}

export function settle(terms: BookingTerms): Settlement {
  const payoutCents = terms.guaranteeCents + terms.backendCents;
  const diff = payoutCents - terms.depositCents;
  return { ...terms, payoutCents, balanceDueCents: Math.max(0, diff), refundDueCents: Math.max(0, -diff) };
}
