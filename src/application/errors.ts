import { DomainError } from '../domain/shared/domain-error.js';

/**
 * Errors raised by use cases and ports that are not rules of the domain itself.
 * Adapters translate vendor failures into these; vendor error types never cross a port.
 */

/** A vendor (processor, RPC node, SMTP relay, agent runtime) failed or timed out. HTTP: 502. */
export class UpstreamUnavailableError extends DomainError {
  constructor(readonly upstream: string, message = `${upstream} is unavailable`, override readonly cause?: unknown) {
    super('UPSTREAM_UNAVAILABLE', message);
  }
}

/** A thing that does not exist, or that the actor may not see. HTTP: 404. */
export class NotFoundError extends DomainError {
  constructor(what: string) {
    super('NOT_FOUND', `${what} not found`);
  }
}

/** Input that passed schema validation but breaks a rule only the use case can check. HTTP: 400. */
export class InvalidInputError extends DomainError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
  }
}

/** The gateway has no plugin of that name (spec "Gateway": 502 `no_plugin`). */
export class NoGatewayPluginError extends DomainError {
  constructor(named: string) {
    super('NO_PLUGIN', `No plugin handles ${JSON.stringify(named.slice(0, 64))}`);
  }
}

/**
 * The service could not settle a payer's valid EIP-3009 authorization (its settler is short of
 * gas, the settlement would need more gas than allowed, the settler stayed busy): the payer did
 * nothing wrong, nothing was served or moved. HTTP: 502 with `reason` (decision 0432).
 */
export class SettlementFailedError extends DomainError {
  constructor(readonly reason: string, message: string) {
    super('SETTLEMENT_FAILED', message, { reason });
  }
}

/** An on-chain payment that does not pay for what was asked (gateway: 402 with the reason). */
export class MppPaymentRejectedError extends DomainError {
  constructor(readonly reason: string, message: string) {
    super('MPP_PAYMENT_REJECTED', message, { reason });
  }
}
