import { inject, injectable } from 'tsyringe';
import { LOGGER, type Logger } from '../ports/logger.port.js';
import { ONE_CALL_GRANTS, type OneCallGrants } from '../ports/one-call-grants.port.js';
import { UNIT_OF_WORK, type SystemWork } from '../ports/unit-of-work.port.js';
import type { GatewayCall, GatewayPlugin, GatewayResult, GatewayStreamEvent } from './gateway-plugin.js';

/** What was taken before the plugin ran, and must be given back or recorded if it fails. */
export type TakenPayment =
  /** Metered: the plugin reserves and releases units itself. */
  | { readonly kind: 'metered' }
  | { readonly kind: 'grant'; readonly grantId: string }
  | { readonly kind: 'mpp'; readonly nonce: string };

/**
 * Runs a plugin once its payment is taken, and settles the payment with the outcome: an MPP
 * payment is marked served, or failed (so the same credential may retry once, or the payer be
 * refunded); a one-call grant is restored when the plugin failed. Settling never hides the
 * plugin's own error, and a failed settlement is logged, not thrown over the answer.
 */
@injectable()
export class RunGatewayCall {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: SystemWork<'mppLedger'>,
    @inject(ONE_CALL_GRANTS) private readonly grants: OneCallGrants,
    @inject(LOGGER) private readonly log: Logger,
  ) {}

  async run(plugin: GatewayPlugin, call: GatewayCall, taken: TakenPayment): Promise<GatewayResult> {
    let result: GatewayResult;
    try {
      result = await plugin.run(call);
    } catch (err) {
      await this.failed(taken, err);
      throw err;
    }
    await this.served(taken);
    return result;
  }

  /** The plugin's stream, settled when it ends: served after `done`, failed when it throws or stops early. */
  async *stream(plugin: GatewayPlugin, call: GatewayCall, taken: TakenPayment): AsyncGenerator<GatewayStreamEvent> {
    let done = false;
    let error: unknown = new Error('the stream stopped before its answer');
    try {
      for await (const event of plugin.stream!(call)) {
        if (event.type === 'done') {
          done = true;
          await this.served(taken);
        }
        yield event;
      }
    } catch (err) {
      error = err;
      throw err;
    } finally {
      // also when the client left and the consumer stopped iterating
      if (!done) await this.failed(taken, error);
    }
  }

  private async served(taken: TakenPayment): Promise<void> {
    if (taken.kind !== 'mpp') return;
    await this.settle(() => this.uow.asSystem((s) => s.mppLedger.markServed(taken.nonce)), taken);
  }

  private async failed(taken: TakenPayment, err: unknown): Promise<void> {
    const why = err instanceof Error ? `${(err as { code?: string }).code ?? err.name}: ${err.message}` : String(err);
    if (taken.kind === 'mpp') await this.settle(() => this.uow.asSystem((s) => s.mppLedger.markFailed(taken.nonce, why)), taken);
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
