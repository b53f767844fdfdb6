import type { UserId } from '../../domain/shared/ids.js';
import type { Logger } from '../ports/logger.port.js';
import type { UsageMeter, UsageReservation } from '../ports/usage-meter.port.js';
import type { ChatPayment } from './chat-metering.js';
import { ChatCancelledError } from './chat-call.js';

/**
 * One metered call priced before it is made (the audio calls: characters, minutes), CONTRACT.md
 * section 6: reserve `estimate` units → `work` → settle to what `actual` says was used, or
 * release on any failure. A prepaid payment reserves nothing. Settling and releasing are awaited
 * (the answer is already known) but never fail the call: a fault is logged and the reservation
 * stays held until the stale-reservation job releases it.
 */
export async function paidCall<T>(
  deps: { meter: UsageMeter; log: Logger },
  payment: ChatPayment,
  estimate: number,
  work: () => Promise<T>,
  actual: (result: T) => number,
  signal?: AbortSignal,
): Promise<T> {
  const payer: UserId | null = 'prepaid' in payment ? null : payment.payer;
  const reservation = payer === null ? null : await deps.meter.reserve(payer, estimate);
  let result: T;
  try {
    result = await work();
  } catch (err) {
    if (reservation) await close(deps, reservation, 'release', () => deps.meter.release(reservation));
    if (signal?.aborted) throw new ChatCancelledError();
    throw err;
  }
  if (reservation) await close(deps, reservation, 'settle', () => deps.meter.settle(reservation, actual(result)));
  return result;
}

async function close(deps: { log: Logger }, reservation: UsageReservation, what: string, op: () => Promise<boolean>): Promise<void> {
  try {
    if (!(await op())) deps.log.warn({ reservation }, `usage ${what}: the reservation was already closed; nothing changed`);
  } catch (err) {
    deps.log.error({ err, reservation }, `usage ${what} failed; the reservation stays held`);
  }
}
