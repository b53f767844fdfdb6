import { LRUCache } from 'lru-cache';
import type { UserId } from '../../domain/shared/ids.js';

/** One payer's allowance as this process last read it. */
interface View {
  /** Units the payer could still reserve, as the last reservation statement to answer saw it. */
  remaining: number;
  /** Units of this process's reservations sent and not answered yet: not in `remaining`. */
  inFlight: number;
  /** Bumped by every reading: a reservation that began before another's reading may report older figures. */
  readings: number;
}

/**
 * This process's own view of what each payer can still reserve, taken from the answers of its
 * reservation statements (UsageMeter.reserveWithChatAccess's `available`), minus its reservations
 * still on their way. It only decides whether a call may start its provider beside its
 * reservation instead of after it (decision 0374): the reservation still decides, every time,
 * whether the call is answered and charged. A stale view (another process spent the units, a
 * subscription lapsed, a settlement overran) costs at most aborted provider calls; the first
 * reservation to answer corrects it.
 */
export class AllowanceView {
  private readonly views = new LRUCache<UserId, View>({ max: 50_000 });

  /** Whether what was last read, less this process's reservations in flight, covers `units`; no view: no. */
  covers(payer: UserId, units: number): boolean {
    const v = this.views.get(payer);
    return v !== undefined && v.remaining - v.inFlight >= units;
  }

  /**
   * A reservation of `units` is being sent: counted against the view until it answers. Returns what
   * to call with the statement's figure (`available`), or with nothing when it failed.
   */
  reserving(payer: UserId, units: number): (available?: number) => void {
    let v = this.views.get(payer);
    if (!v) this.views.set(payer, (v = { remaining: 0, inFlight: 0, readings: 0 }));
    const view = v;
    const readingsBefore = view.readings;
    view.inFlight += units;
    let done = false;
    return (available) => {
      if (done) return;
      done = true;
      view.inFlight -= units;
      if (available === undefined) return;
      // a later reading may already have seen this statement's units taken: never raise the view
      // above it with an older figure
      view.remaining = view.readings === readingsBefore ? available : Math.min(view.remaining, available);
      view.readings++;
    };
  }

  /** The payer was refused or pays with their own keys: no view until their next reservation answers. */
  forget(payer: UserId): void {
    this.views.delete(payer);
  }
}
