import type { UserId } from '../../domain/shared/ids.js';
import type { UsageReservations } from '../billing/usage-reservations.js';
import type { ChatPayment } from './chat-metering.js';
import { ChatCancelledError } from './chat-call.js';
import { ProviderReach } from './provider-reach.js';

/**
 * One metered call priced before it is made (the audio calls: characters, minutes), CONTRACT.md
 * section 6: reserve `estimate` units → `work` → settle to what `actual` says was used, or
 * release on any failure. A caller who leaves once `work`'s request has gone out (told through
 * `reach`) is settled to `estimate`, the price of what the vendor received (decision 0419); before
 * that, released. A prepaid payment reserves nothing. The first attempt at settling or
 * releasing is awaited (the answer is already known) but never fails the call: UsageReservations
 * retries a fault in the background and holds the reservation's lease meanwhile.
 */
export async function paidCall<T>(
  deps: { reservations: UsageReservations },
  payment: ChatPayment,
  estimate: number,
  work: (reach: ProviderReach) => Promise<T>,
  actual: (result: T) => number,
  signal?: AbortSignal,
): Promise<T> {
  const payer: UserId | null = 'prepaid' in payment ? null : payment.payer;
  // under the payer's API key, if any: its daily units are reserved with theirs (decision 0425)
  const keyId = 'prepaid' in payment ? undefined : payment.key?.id;
  const reservation = payer === null ? null : await deps.reservations.reserve(payer, estimate, keyId);
  const reach = new ProviderReach();
  let result: T;
  try {
    result = await work(reach);
  } catch (err) {
    const left = signal?.aborted === true;
    if (reservation) await (left && reach.isSent ? deps.reservations.settle(reservation, estimate) : deps.reservations.release(reservation));
    if (left) throw new ChatCancelledError();
    throw err;
  }
  if (reservation) await deps.reservations.settle(reservation, actual(result));
  return result;
}
