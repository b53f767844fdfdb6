import { inject, injectable } from 'tsyringe';
import type { AuthorizationKey } from '../ports/authorization-ledger.port.js';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { ONE_CALL_GRANTS, type OneCallGrants } from '../ports/one-call-grants.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { GatewaySystemScope } from '../ports/scopes/gateway-scope.port.js';
import type { GatewayCall, GatewayPlugin, GatewayResult, GatewayStreamEvent } from '../ports/gateway-plugin.port.js';

/** What was taken before the plugin ran, and must be given back or recorded if it fails. */
export type TakenPayment =
  /** Metered: the plugin reserves and releases units itself. */
  | { readonly kind: 'metered' }
  | { readonly kind: 'grant'; readonly grantId: string }
  | { readonly kind: 'mpp'; readonly nonce: string }
  /** An EIP-3009 authorization settled on chain (x402, MPP's evm authorization). */
  | { readonly kind: 'authorization'; readonly key: AuthorizationKey };

/** How the plugin answered: whole, or as a stream whose first event has already come. */
export type GatewayRun =
  | { readonly kind: 'answered'; readonly result: GatewayResult }
  /** The first event was awaited here: a plugin that fails at once still fails the call, not the stream. */
  | { readonly kind: 'streaming'; readonly events: AsyncIterable<GatewayStreamEvent> };

/**
 * Runs a plugin once its payment is taken, and settles the payment (CONTRACT.md section 7
 * "prepaid calls"): the payment is spent as soon as the answer begins to reach the caller (the
 * whole answer, or a stream's first event), whatever happens after, a caller who leaves part way
 * included. Only the plugin failing before any output gives it back: a one-call grant returns to
 * paid, an MPP payment or a settled authorization is marked failed (its credential may retry once). A caller who left before
 * any output has used it too: the plugin's work was asked for and begun. Settling never hides the
 * plugin's own error, and a failed settlement is logged, not thrown over the answer.
 */
@injectable()
export class RunGatewayCall {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<GatewaySystemScope, 'mppLedger' | 'authorizationLedger'>,
    @inject(ONE_CALL_GRANTS) private readonly grants: OneCallGrants,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  /** Streams when `stream` is asked and the plugin streams; else the whole answer. */
  async execute(plugin: GatewayPlugin, call: GatewayCall, taken: TakenPayment, stream: boolean): Promise<GatewayRun> {
    if (!(stream && plugin.stream)) return { kind: 'answered', result: await this.run(plugin, call, taken) };
    const events = this.stream(plugin, call, taken)[Symbol.asyncIterator]();
    const first = await events.next();
    return { kind: 'streaming', events: replay(first, events) };
  }

  private async run(plugin: GatewayPlugin, call: GatewayCall, taken: TakenPayment): Promise<GatewayResult> {
    let result: GatewayResult;
    try {
      result = await plugin.run(call);
    } catch (err) {
      await this.endedBeforeOutput(taken, call, err);
      throw err;
    }
    await this.spent(taken);
    return result;
  }

  /** The plugin's stream: spent at its first event, given back only when it fails before one. */
  private async *stream(plugin: GatewayPlugin, call: GatewayCall, taken: TakenPayment): AsyncGenerator<GatewayStreamEvent> {
    let output = false;
    try {
      for await (const event of plugin.stream!(call)) {
        if (!output) {
          output = true;
          // recorded before the first event goes out: once it is written, the caller has it
          await this.spent(taken);
        }
        yield event;
      }
    } catch (err) {
      if (!output) await this.endedBeforeOutput(taken, call, err);
      throw err;
    }
    // a stream that ended without a single event gave the caller nothing
    if (!output) await this.endedBeforeOutput(taken, call, new Error('the plugin answered nothing'));
  }

  private async spent(taken: TakenPayment): Promise<void> {
    if (taken.kind === 'mpp') await this.settle(() => this.uow.asSystem((s) => s.mppLedger.markServed(taken.nonce)), taken);
    else if (taken.kind === 'authorization') await this.settle(() => this.uow.asSystem((s) => s.authorizationLedger.markServed(taken.key)), taken);
  }

  /** No output reached the caller: a failure gives the payment back; a caller who left has used it. */
  private async endedBeforeOutput(taken: TakenPayment, call: GatewayCall, err: unknown): Promise<void> {
    if (call.signal.aborted) return this.spent(taken);
    const why = err instanceof Error ? `${(err as { code?: string }).code ?? err.name}: ${err.message}` : String(err);
    if (taken.kind === 'mpp') await this.settle(() => this.uow.asSystem((s) => s.mppLedger.markFailed(taken.nonce, why)), taken);
    else if (taken.kind === 'authorization') await this.settle(() => this.uow.asSystem((s) => s.authorizationLedger.markFailed(taken.key, why)), taken);
    else if (taken.kind === 'grant') await this.settle(() => this.grants.restore(taken.grantId), taken);
  }

  private async settle(work: () => Promise<void>, taken: TakenPayment): Promise<void> {
    try {
      await work();
    } catch (err) {
      this.log.error({ err, taken }, 'gateway payment could not be settled after the plugin call');
    }
  }
}

/** The stream again from its first event, already read. */
async function* replay<T>(first: IteratorResult<T>, rest: AsyncIterator<T>): AsyncGenerator<T> {
  for (let next = first; !next.done; next = await rest.next()) yield next.value;
}
