import { inject, injectable } from 'tsyringe';
import type { AiModel } from '../../domain/ai/ai-model.js';
import { estimatePromptTokens, reservationUnits, tokensForChars } from '../../domain/ai/usage-estimate.js';
import { unitsForTokens } from '../../domain/billing/units.js';
import type { ChatMessage, TokenUsage } from '../ports/ai-provider.port.js';
import { BYOK_KEY_READER, type ByokKeyReader, type ByokKeys } from '../ports/byok-key-reader.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { USAGE_METER, type UsageMeter, type UsageReservation } from '../ports/usage-meter.port.js';
import type { ChatGrant } from './authorize-chat.use-case.js';

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
 * Otherwise it reserves an estimate (prompt plus `max_tokens`) and settles to the provider's
 * counts. Settling and releasing never throw: the answer has been produced (or has failed)
 * already, so a metering fault is logged, not turned into the client's error.
 */
@injectable()
export class ChatMetering {
  constructor(
    @inject(USAGE_METER) private readonly meter: UsageMeter,
    @inject(BYOK_KEY_READER) private readonly byok: ByokKeyReader,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  /** Throws UsageExhaustedError (429) when the payer's units and credits cannot cover the estimate. */
  async open(grant: ChatGrant, candidates: readonly AiModel[], explicitModel: boolean, request: { messages: readonly ChatMessage[]; maxTokens?: number | undefined }): Promise<MeteredCall> {
    const keys = await this.byok.keysFor(grant.payer);
    const reachable = (m: AiModel) => Boolean(keys[m.provider]);
    const byok = explicitModel ? reachable(candidates[0]!) : candidates.some(reachable);
    if (byok) return { candidates: candidates.filter(reachable), byokKeys: keys, messages: request.messages };
    const units = reservationUnits(request.messages, request.maxTokens, candidates[0]!.contextWindow);
    const reservation = await this.meter.reserve(grant.payer, units);
    return { candidates, reservation, messages: request.messages };
  }

  /** Settles to the real usage. */
  async settle(call: MeteredCall, usage: TokenUsage): Promise<void> {
    return this.settleTokens(call, usage.totalTokens);
  }

  /** Settles a stream the client left after `completionChars` characters: the prompt and what was sent. */
  async settlePartial(call: MeteredCall, completionChars: number): Promise<void> {
    if (completionChars === 0) return this.release(call);
    return this.settleTokens(call, estimatePromptTokens(call.messages) + tokensForChars(completionChars));
  }

  async release(call: MeteredCall): Promise<void> {
    if (!call.reservation) return;
    await this.meter.release(call.reservation).catch((err: unknown) => this.failed(call, 'release', err));
  }

  private async settleTokens(call: MeteredCall, totalTokens: number): Promise<void> {
    if (!call.reservation) return;
    await this.meter.settle(call.reservation, unitsForTokens(totalTokens)).catch((err: unknown) => this.failed(call, 'settle', err));
  }

  private failed(call: MeteredCall, what: string, err: unknown): void {
    this.log.error({ err, reservation: call.reservation }, `usage ${what} failed; the reservation stays held`);
  }
}
