import { inject, injectable } from 'tsyringe';
import { DEFAULT_GATEWAY_PLUGIN, isGatewayPluginId, type GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import type { Actor } from '../auth/actor.js';
import { InvalidInputError, NoGatewayPluginError } from '../errors.js';
import { GATEWAY_PLUGINS, type GatewayPlugin } from '../ports/gateway-plugin.port.js';
import type { PaymentChallenge } from './issue-payment-challenge.use-case.js';
import { PayForGatewayCall, type ChallengeReason, type GatewayPaymentMethod, type X402Settlement } from './pay-for-gateway-call.use-case.js';
import { GATEWAY_BODY_SCHEMAS } from './plugin-bodies.js';
import { RunGatewayCall, type GatewayRun } from './run-gateway-call.use-case.js';

/** A gateway call as it arrived: the headers that steer it and the body as sent. */
export interface GatewayCallRequest {
  /** `X-Plugin-Id` as sent: it names the plugin before the body's `plugin` does. */
  readonly pluginHeader: string | undefined;
  /** The JSON body: `plugin`, and the plugin's own fields. */
  readonly body: unknown;
  /** `X-Payment-Method` as sent, if it was. */
  readonly namedMethod: string | undefined;
  /** `Authorization` as sent: a `Payment` credential pays on chain. */
  readonly authorization: string | undefined;
  /** `PAYMENT-SIGNATURE` (or `X-PAYMENT`) as sent: an x402 payment. */
  readonly paymentSignature: string | undefined;
  /** The authenticated caller, or null. */
  readonly caller: Actor | null;
  /** The caller asked for a stream; only the streaming plugins answer with one. */
  readonly stream: boolean;
  /** Aborted when the caller leaves. */
  readonly signal: AbortSignal;
}

export type GatewayCallOutcome =
  /** The processor method without a caller: nothing read, nothing issued. */
  | { readonly kind: 'unauthorized' }
  /** Not paid: this challenge is offered (402); `reason` when a sent credential was refused. */
  | { readonly kind: 'challenge'; readonly plugin: GatewayPluginId; readonly challenge: PaymentChallenge; readonly reason?: ChallengeReason }
  /** Paid and run; `receipt` is the transaction hash of an on-chain payment, else null. */
  | {
      readonly kind: 'paid';
      readonly plugin: GatewayPluginId;
      readonly method: GatewayPaymentMethod;
      readonly receipt: string | null;
      /** An x402 payment's settlement (`PAYMENT-RESPONSE`), else null. */
      readonly settlement: X402Settlement | null;
      readonly answer: GatewayRun;
    };

/**
 * One gateway call (spec "Gateway", issue 10), in the spec's order: the body is a JSON object
 * (400) → the plugin, `X-Plugin-Id` before the body's `plugin`, `generate-text` by default
 * (NoGatewayPluginError: 502 `no_plugin`) → how it is paid (PayForGatewayCall: a caller for the
 * processor method, then the plugin's own body, 400, before any challenge is issued or payment
 * taken) → the plugin, which runs only once its payment is taken (RunGatewayCall settles it).
 */
@injectable()
export class CallGatewayPlugin {
  private readonly plugins: ReadonlyMap<string, GatewayPlugin>;

  constructor(
    @inject(GATEWAY_PLUGINS) plugins: readonly GatewayPlugin[],
    @inject(PayForGatewayCall) private readonly pay: PayForGatewayCall,
    @inject(RunGatewayCall) private readonly runner: RunGatewayCall,
  ) {
    this.plugins = new Map(plugins.map((p) => [p.id, p]));
  }

  async execute(request: GatewayCallRequest): Promise<GatewayCallOutcome> {
    const raw = request.body ?? {};
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new InvalidInputError('VALIDATION_ERROR', 'The body must be a JSON object');
    const { plugin: named, ...fields } = raw as Record<string, unknown>;
    if (named !== undefined && typeof named !== 'string') throw new InvalidInputError('VALIDATION_ERROR', 'plugin must be a string');
    const id = request.pluginHeader?.trim() || named || DEFAULT_GATEWAY_PLUGIN;
    const plugin = isGatewayPluginId(id) ? this.plugins.get(id) : undefined;
    if (!plugin || !isGatewayPluginId(id)) throw new NoGatewayPluginError(id);

    const payment = await this.pay.execute({
      plugin: id,
      namedMethod: request.namedMethod,
      authorization: request.authorization,
      paymentSignature: request.paymentSignature,
      caller: request.caller,
      readInput: () => GATEWAY_BODY_SCHEMAS[id].parse(fields),
    });
    if (payment.kind === 'unauthorized') return payment;
    if (payment.kind === 'challenge') {
      const { challenge, reason } = payment;
      return reason ? { kind: 'challenge', plugin: id, challenge, reason } : { kind: 'challenge', plugin: id, challenge };
    }
    const { method, input, payer, taken, receipt, settlement } = payment;
    const answer = await this.runner.execute(plugin, { payer, input, signal: request.signal }, taken, request.stream);
    return { kind: 'paid', plugin: id, method, receipt, settlement, answer };
  }
}
