import type { FastifyBaseLogger } from 'fastify';
import type { GatewayResult, GatewayStreamEvent } from '../../../../application/ports/gateway-plugin.port.js';
import { DomainError } from '../../../../domain/shared/domain-error.js';
import { httpErrorFor } from '../error-map.js';
import { sseFrame } from '../server-sent-events.js';
import type { PaymentChallenge } from '../../../../application/gateway/issue-payment-challenge.use-case.js';
import type { GatewayPaymentMethod, X402Settlement } from '../../../../application/gateway/pay-for-gateway-call.use-case.js';
import { x402PaymentRequired, x402PaymentResponse } from '../../../../domain/gateway/x402.js';
import { mppEvmAuthParams } from '../../../../domain/gateway/mpp-evm.js';

/** The spec's gateway success body: `{plugin, message, timestamp, payment: {method, receipt}}`, plus the plugin's extra fields. */
export const gatewaySuccessBody = (plugin: string, result: GatewayResult, method: GatewayPaymentMethod, receipt: string | null) => ({
  ...(result.extra ?? {}),
  plugin,
  message: result.message,
  timestamp: new Date().toISOString(),
  payment: { method, receipt },
});

/** The spec's 402 body; `mpp` only while MPP is offered. `reason` says why a sent credential did not pay. */
export function paymentRequiredBody(challenge: PaymentChallenge, reason?: { code: string; message: string }) {
  const { mpp, psp } = challenge;
  return {
    error: 'payment_required',
    message: reason ? `Payment required: ${reason.message}` : 'Payment required: pay on chain (mpp) or buy one call at checkout (psp)',
    ...(reason ? { reason: reason.code } : {}),
    ...(mpp
      ? {
          mpp: {
            scheme: mpp.scheme,
            amount: mpp.amount,
            currency: mpp.currency,
            recipient: mpp.recipient,
            description: mpp.description,
            nonce: mpp.nonce,
            expiresAt: mpp.expiresAt,
          },
        }
      : {}),
    psp: { checkoutUrl: psp.checkoutUrl, amount: psp.amount, currency: psp.currency },
  };
}

/**
 * `PAYMENT-REQUIRED` of the 402 (x402 version 2): base64 of the `exact` offer, its `error` the
 * refusal's reason when a sent payment was refused. None when x402 is not offered.
 */
export const paymentRequiredHeader = (challenge: PaymentChallenge, reason?: { code: string; message: string }): string | null =>
  challenge.x402 ? base64Json(x402PaymentRequired(challenge.x402, reason ? `${reason.code}: ${reason.message}` : 'Payment required')) : null;

/** `PAYMENT-RESPONSE` of a call an x402 payment paid for. */
export const paymentResponseHeader = (s: X402Settlement): string => base64Json(x402PaymentResponse(s));

const base64Json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');

/**
 * `WWW-Authenticate` of the 402 (spec "Gateway"); none without MPP. With a settler, mppx's `evm`
 * charge params follow the spec's three in the same challenge (decision 0435).
 */
export function wwwAuthenticate(challenge: PaymentChallenge): string | null {
  if (!challenge.mpp) return null;
  const spec = `Payment amount=${challenge.mpp.amount}, currency=${challenge.mpp.currency}, recipient=${challenge.mpp.recipient}`;
  return challenge.mppEvm ? `${spec}, ${mppEvmAuthParams(challenge.mppEvm, base64Url)}` : spec;
}

const base64Url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/**
 * The gateway's stream as server-sent events: `delta` frames `{content}`, then one `done` whose
 * data is the whole success body, or one `error` `{error, code}` when the plugin fails midway
 * (the code as the error map tells it on the gateway; an unexpected failure is logged, not told).
 */
export async function* gatewayEventFrames(events: AsyncIterable<GatewayStreamEvent>, body: (r: GatewayResult) => unknown, log: FastifyBaseLogger): AsyncGenerator<string> {
  try {
    for await (const e of events) yield e.type === 'delta' ? sseFrame('delta', { content: e.content }) : sseFrame('done', body(e.result));
  } catch (err) {
    if (!(err instanceof DomainError)) log.error({ err }, 'gateway stream failed');
    yield sseFrame('error', err instanceof DomainError ? { error: err.message, code: httpErrorFor(err.code, 'gateway').code } : { error: 'internal', code: 'INTERNAL' });
  }
}
