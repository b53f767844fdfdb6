import { LRUCache } from 'lru-cache';
import { inject, injectable } from 'tsyringe';
import type { AiModel } from '../../domain/ai/ai-model.js';
import { estimatePromptTokens, reservationUnits, tokensForChars } from '../../domain/ai/usage-estimate.js';
import { unitsForTokens } from '../../domain/billing/units.js';
import { UsageExhaustedError } from '../../domain/billing/billing.errors.js';
import type { UserId } from '../../domain/shared/ids.js';
import type { ChatMessage, TokenUsage } from '../ports/ai-provider.port.js';
import { AI_SETTINGS, type AiSettings } from '../ports/ai-settings.port.js';
import { BYOK_KEY_READER, type ByokKeyReader, type ByokKeys } from '../ports/byok-key-reader.port.js';
import type { UsageReservation } from '../ports/usage-meter.port.js';
import { UsageReservations } from '../billing/usage-reservations.js';
import { chatLevelRank, type ChatLevel } from '../../domain/billing/plan-catalogs.js';
import { AllowanceView } from './allowance-view.js';
import type { ChatGrant, CheckedReservation, PendingChatGrant } from './authorize-chat.use-case.js';
import { chatCandidates, type ChatInput } from './chat-call.js';
import { keyCandidates } from '../auth/key-access.js';
import type { ProviderReach } from './provider-reach.js';

/**
 * A call paid for in advance (the gateway's on-chain MPP payment or one-off checkout): routed
 * within `level` on the platform's keys, with nothing reserved or settled and no BYOK.
 */
export interface PrepaidChat {
  readonly prepaid: true;
  readonly level: ChatLevel;
}

/** Who pays a chat call: a subscriber's grant (metered; maybe still being confirmed) or a payment already taken. */
export type ChatPayment = ChatGrant | PendingChatGrant | PrepaidChat;

/** The outcome of a reservation taken while the grant was being confirmed. */
type Taken = { readonly reservation: UsageReservation } | { readonly error: unknown };

/**
 * A call whose provider may be called while its reservation is on its way (ChatMetering.openAhead):
 * with `candidates` on the platform's keys. `opening` is the call as `open` would give it; when it
 * rejects, or opens with other candidates (BYOK applies, another level), the provider call must be
 * aborted and its answer never delivered.
 */
export interface OpeningAhead {
  readonly candidates: readonly AiModel[];
  readonly opening: Promise<MeteredCall>;
}

/** One metered (or BYOK) chat call between its reservation and its settlement. */
export interface MeteredCall {
  /** The candidates to route to: for BYOK, only those the user's keys can reach. */
  readonly candidates: readonly AiModel[];
  /** Set for a BYOK call: the router then uses only these keys, never the platform's. */
  readonly byokKeys?: ByokKeys;
  /** Set for a metered call. */
  readonly reservation?: UsageReservation;
  readonly messages: readonly ChatMessage[];
}

/**
 * Reservation and settlement of chat calls (CONTRACT.md section 6). A call is BYOK when the
 * payer has a key for the chosen model's provider (for an auto-selected model: for any
 * candidate's): it reserves nothing and may only fall back to models the user's keys reach.
 * Otherwise it reserves an estimate (prompt plus `max_tokens`) before the call and settles to
 * the provider's counts after it; a call its caller leaves is settled to its prompt once the
 * provider request has gone out (`settleLeft`, decision 0419).
 *
 * With a grant still being confirmed, the reservation is taken with the checks, one round trip
 * less on every call: in the same statement when the grant brings a check that can be made there
 * (`reserveWithCheck`: AuthorizeChat's `chatAccess` read, a runtime's token), else at the same
 * time as its own check. Only for a payer whose last call in this process was metered, with the payer and level
 * the checks then confirm: a refused caller, a BYOK payer or a first call waits for the checks
 * first, so a speculative reservation is rare to give back. One that turns out unwanted (refused,
 * BYOK, another level) is released before anything else happens.
 *
 * Settling and releasing never throw and are not waited for (they are write transactions, each
 * waiting for a disk flush), except that a settlement is handed to the database before the answer
 * it charges goes out: `settle` resolves then (UsageReservations.dispatchSettle), so no crash after
 * the answer makes the call free. UsageReservations holds each reservation's lease while the call
 * lives and retries a settlement the database refused, so a long stream keeps its units and an
 * outage loses no charge. `drain()` waits for the closings in flight; the HTTP layer calls it on close.
 */
@injectable()
export class ChatMetering {
  /**
   * Payers whose last call in this process was metered (reserved): their next one reserves while its
   * grant is confirmed. With the highest chat level this process has confirmed for them since (their
   * checks' refusal forgets it): a provider is called early only within it (decision 0412).
   */
  private readonly metered = new LRUCache<UserId, ChatLevel>({ max: 50_000 });
  /** What each payer can still reserve, as this process last read it (decision 0374). */
  private readonly allowance = new AllowanceView();

  constructor(
    @inject(UsageReservations) private readonly reservations: UsageReservations,
    @inject(BYOK_KEY_READER) private readonly byok: ByokKeyReader,
    @inject(AI_SETTINGS) private readonly settings: AiSettings,
  ) {}

  /**
   * The models the call may use (chatCandidates: 400, 403 or 404 when none), then its reservation.
   * Throws UsageExhaustedError (429) when the payer's units and credits cannot cover the estimate;
   * a prepaid call opens with nothing held. A pending grant's refusal comes first, before any of these.
   */
  async open(grant: ChatPayment, input: ChatInput): Promise<MeteredCall> {
    if ('confirmation' in grant) return this.openPending(grant, input);
    // paid already: a call without a reservation is one settle and release leave alone
    if ('prepaid' in grant) return { candidates: chatCandidates(grant.level, input, this.settings.defaultModelId), messages: input.messages };
    const candidates = this.candidates(grant, input);
    const explicitModel = input.model !== undefined;
    // the keys are read (and decrypted) only when the payer keeps one this call could use
    if (byokApplies(candidates, explicitModel, (m) => grant.byokProviders.includes(m.provider))) {
      this.metered.delete(grant.payer);
      const keys = await this.byok.keysFor(grant.payer);
      const reachable = (m: AiModel) => Boolean(keys[m.provider]);
      if (byokApplies(candidates, explicitModel, reachable)) {
        return { candidates: candidates.filter(reachable), byokKeys: keys, messages: input.messages };
      }
    }
    this.confirmedAt(grant.payer, grant.level);
    const units = reservationUnits(input.messages, input.maxTokens, candidates[0]!.contextWindow);
    const reservation = await this.reservations.reserve(grant.payer, units, grant.key?.id);
    return { candidates, reservation, messages: input.messages };
  }

  /**
   * The models the call may use (chatCandidates), narrowed to its API key's list when it has one
   * (keyCandidates: 403 KEY_MODEL_NOT_ALLOWED), before anything is reserved or called.
   */
  private candidates(grant: ChatGrant | PendingChatGrant, input: ChatInput): readonly AiModel[] {
    return keyCandidates(grant.key, chatCandidates(grant.level, input, this.settings.defaultModelId), input.model !== undefined);
  }

  /**
   * `open` for a call that may start its provider beside its reservation (decision 0374): a grant
   * confirmed by the reservation's own statement, for a payer whose last call here was metered at a
   * level at least this call's (0412), and whose allowance, as this process last read it less its own
   * reservations in flight, covers this call's. Null otherwise: the call opens with `open`, before its provider.
   */
  openAhead(grant: ChatPayment, input: ChatInput): OpeningAhead | null {
    if (!('confirmation' in grant) || !grant.reserveWithCheck) return null;
    // the headers' level is a claim until the checks answer: a provider called for a level this
    // payer was never confirmed at here would bill a model their subscription may not grant
    const confirmed = this.metered.get(grant.payer);
    if (confirmed === undefined || chatLevelRank(grant.level) > chatLevelRank(confirmed)) return null;
    // a key's cap is not in this process's view of the payer's allowance: its provider waits for its reservation
    if (grant.key?.limits.dailyUnits != null) return null;
    let candidates: readonly AiModel[];
    try {
      candidates = this.candidates(grant, input);
    } catch {
      return null; // the confirmed grant says which refusal comes first: `open` decides
    }
    const units = reservationUnits(input.messages, input.maxTokens, candidates[0]!.contextWindow);
    if (!this.allowance.covers(grant.payer, units)) return null;
    return { candidates, opening: this.openChecked(grant, grant.reserveWithCheck, candidates, units, input) };
  }

  /** A grant still being confirmed: the reservation taken meanwhile when the payer's last call was metered, else after it. */
  private async openPending(grant: PendingChatGrant, input: ChatInput): Promise<MeteredCall> {
    let candidates: readonly AiModel[] | null = null;
    try {
      if (this.metered.has(grant.payer)) candidates = this.candidates(grant, input);
    } catch {
      // the confirmed grant says which refusal comes first (the checks' before the model's)
    }
    if (!candidates) return this.open(await grant.confirmation, input);
    const units = reservationUnits(input.messages, input.maxTokens, candidates[0]!.contextWindow);
    if (grant.reserveWithCheck) return this.openChecked(grant, grant.reserveWithCheck, candidates, units, input);
    const taking: Promise<Taken> = this.reservations.reserve(grant.payer, units, grant.key?.id).then(
      (reservation) => ({ reservation }),
      (error: unknown) => ({ error }),
    );
    let confirmed: ChatGrant;
    try {
      confirmed = await grant.confirmation;
    } catch (refusal) {
      this.metered.delete(grant.payer);
      this.giveBack(await taking);
      throw refusal;
    }
    const byokCould = byokApplies(candidates, input.model !== undefined, (m) => confirmed.byokProviders.includes(m.provider));
    if (byokCould || confirmed.payer !== grant.payer || confirmed.level !== grant.level) {
      // not the call that was reserved for: given back, and opened as the checks say
      this.giveBack(await taking);
      return this.open(confirmed, input);
    }
    const taken = await taking;
    if ('error' in taken) throw taken.error;
    return { candidates, reservation: taken.reservation, messages: input.messages };
  }

  /** The reservation and the grant's check in one statement; the grant decided from what it read. */
  private async openChecked(grant: PendingChatGrant, reserveWithCheck: NonNullable<PendingChatGrant['reserveWithCheck']>, candidates: readonly AiModel[], units: number, input: ChatInput): Promise<MeteredCall> {
    const answered = this.allowance.reserving(grant.payer, units);
    let r: CheckedReservation | undefined;
    try {
      r = await reserveWithCheck(this.reservations, units);
    } finally {
      answered(r?.available); // no figure when the statement failed
    }
    const { taken } = r;
    const reserved: Taken = taken instanceof UsageExhaustedError ? { error: taken } : { reservation: taken };
    let confirmed: ChatGrant;
    try {
      confirmed = r.confirm();
    } catch (refusal) {
      this.metered.delete(grant.payer);
      this.allowance.forget(grant.payer);
      this.giveBack(reserved);
      throw refusal;
    }
    const byokCould = byokApplies(candidates, input.model !== undefined, (m) => confirmed.byokProviders.includes(m.provider));
    if (byokCould || confirmed.payer !== grant.payer || confirmed.level !== grant.level) {
      this.allowance.forget(grant.payer);
      this.giveBack(reserved);
      return this.open(confirmed, input);
    }
    if ('error' in reserved) throw reserved.error;
    this.confirmedAt(grant.payer, confirmed.level);
    return { candidates, reservation: reserved.reservation, messages: input.messages };
  }

  /** A metered call of `payer` confirmed at `level`: remembered, keeping the higher of the two. */
  private confirmedAt(payer: UserId, level: ChatLevel): void {
    const before = this.metered.get(payer);
    this.metered.set(payer, before !== undefined && chatLevelRank(before) > chatLevelRank(level) ? before : level);
  }

  private giveBack(taken: Taken): void {
    if ('reservation' in taken) void this.reservations.release(taken.reservation);
  }

  /** Settles to the real usage: resolves once the settlement is on its way to the database (await it before answering); it commits in the background. */
  settle(call: MeteredCall, usage: TokenUsage): Promise<void> {
    const { reservation } = call;
    return reservation ? this.reservations.dispatchSettle(reservation, unitsForTokens(usage.totalTokens)) : DONE;
  }

  /**
   * Books a call its caller left after `completionChars` characters of answer (decision 0419):
   * released while no provider request had gone out; once one had, the vendor may bill its prompt,
   * so it is settled to the prompt (the vendor's count when it gave one, else the estimate the
   * reservation used) and what was sent.
   */
  settleLeft(call: MeteredCall, reach: ProviderReach, completionChars: number): void {
    if (!reach.isSent && completionChars === 0) return this.release(call);
    this.settleTokens(call, (reach.vendorPromptTokens ?? estimatePromptTokens(call.messages)) + tokensForChars(completionChars));
  }

  /** Gives the reservation back: the call failed (in the background). */
  release(call: MeteredCall): void {
    const { reservation } = call;
    if (reservation) void this.reservations.release(reservation);
  }

  /** Resolves when every settlement and release started so far has finished. */
  async drain(): Promise<void> {
    await this.reservations.drain();
  }

  private settleTokens(call: MeteredCall, totalTokens: number): void {
    const { reservation } = call;
    if (reservation) void this.reservations.settle(reservation, unitsForTokens(totalTokens));
  }
}

const DONE = Promise.resolve();

function byokApplies(candidates: readonly AiModel[], explicitModel: boolean, covered: (m: AiModel) => boolean): boolean {
  return explicitModel ? covered(candidates[0]!) : candidates.some(covered);
}
