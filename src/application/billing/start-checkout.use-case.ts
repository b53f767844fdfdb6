import { inject, injectable } from 'tsyringe';
import { UserNotFoundError } from '../../domain/accounts/accounts.errors.js';
import type { CreditPack } from '../../domain/billing/credit-packs.js';
import type { PurchasablePlan } from '../../domain/billing/purchasable-plan.js';
import type { GatewayPluginId } from '../../domain/gateway/gateway-plugin-id.js';
import type { Actor } from '../auth/actor.js';
import { PAYMENT_GATEWAY, type CheckoutKind, type PaymentGateway } from '../ports/payment-gateway.port.js';
import { UNIT_OF_WORK, type UserWork, type SystemWork } from '../ports/unit-of-work.port.js';
import type { BillingSystemScope, BillingUserScope } from '../ports/scopes/billing-scope.port.js';
import { isSubscribed } from '../../domain/billing/subscription.js';
import { AlreadySubscribedError, PriceNotConfiguredError, UnknownPriceError } from './billing.errors.js';
import { BILLING_SETTINGS, type BillingSettings } from '../ports/billing-settings.port.js';
import { checkoutReturnUrls, packOfPrice, priceOfPlan } from './billing-prices.js';

/** What the caller wants to buy. */
export type CheckoutRequest =
  | { readonly kind: 'subscription'; readonly plan: PurchasablePlan }
  | { readonly kind: 'credits'; readonly pack: CreditPack }
  /** A credit pack named by its processor price id: only ids on the allowed list (else 400 UNKNOWN_PRICE). */
  | { readonly kind: 'credit-price'; readonly priceId: string }
  | { readonly kind: 'storage' }
  /** One call of a gateway plugin, paying the grant `grantId` the caller records. */
  | { readonly kind: 'one-call'; readonly plugin: GatewayPluginId; readonly grantId: string };

export interface CheckoutStart {
  /** The hosted checkout (or, for an admin's plan checkout, onboarding). */
  readonly url: string;
  /** The processor's checkout session (absent when no checkout was opened). */
  readonly sessionId?: string;
  /** The pack bought, for credit checkouts. */
  readonly pack?: CreditPack;
}

/**
 * Opens a hosted checkout. Nothing is granted here: plans and credits arrive with the completion
 * event. The user's processor customer is read first and reused; a new one is remembered after
 * the processor answered (never inside a transaction). When the processor fails, 502
 * UPSTREAM_UNAVAILABLE and nothing is recorded. Admins need no plan: a plan checkout sends them
 * straight to onboarding without calling the processor. A plan checkout in a catalog where the
 * caller already has an active (or trialing) plan is 409 ALREADY_SUBSCRIBED naming the portal.
 */
@injectable()
export class StartCheckout {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<BillingUserScope, 'users' | 'paymentCustomers' | 'subscriptions'> & SystemWork<BillingSystemScope, 'paymentCustomers'>,
    @inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    @inject(BILLING_SETTINGS) private readonly settings: BillingSettings,
  ) {}

  async execute(actor: Actor, request: CheckoutRequest): Promise<CheckoutStart> {
    if (request.kind === 'subscription' && actor.role === 'admin') return { url: `${this.settings.appUrl}/onboarding` };
    const item = this.itemOf(request);
    const { email, customerId } = await this.uow.asUser(actor.userId, async (s) => {
      const me = await s.users.me();
      if (!me) throw new UserNotFoundError();
      if (request.kind === 'subscription') {
        // CONTRACT.md 7: a second plan of a catalog is a change of the first, made in the portal
        const held = (await s.subscriptions.list()).find((sub) => sub.kind === 'subscription' && sub.plan?.catalog === request.plan.catalog && isSubscribed(sub.status));
        if (held?.plan) throw new AlreadySubscribedError(held.plan.catalog, held.plan.plan);
      }
      return { email: me.email, customerId: await s.paymentCustomers.mine() };
    });
    const session = await this.gateway.createCheckout({
      kind: item.kind,
      priceId: item.priceId,
      user: { id: actor.userId, email, ...(customerId ? { customerId } : {}) },
      metadata: item.metadata,
      ...checkoutReturnUrls(this.settings.appUrl, item.kind),
    });
    if (!customerId) await this.uow.asSystem((s) => s.paymentCustomers.remember(actor.userId, session.customerId));
    return { url: session.url, sessionId: session.sessionId, ...(item.pack ? { pack: item.pack } : {}) };
  }

  private itemOf(r: CheckoutRequest): { kind: CheckoutKind; priceId: string; metadata: Record<string, string>; pack?: CreditPack } {
    const prices = this.settings.prices;
    const required = (id: string | undefined, what: string): string => {
      if (!id) throw new PriceNotConfiguredError(what);
      return id;
    };
    switch (r.kind) {
      case 'subscription':
        return { kind: 'subscription', priceId: required(priceOfPlan(prices, r.plan), `plan ${r.plan.plan}`), metadata: { plan: r.plan.plan, catalog: r.plan.catalog } };
      case 'credits':
        return { kind: 'credits', priceId: required(prices.credits[r.pack], `credit pack ${r.pack}`), metadata: { pack: r.pack }, pack: r.pack };
      case 'credit-price': {
        const pack = packOfPrice(prices, r.priceId);
        if (!pack) throw new UnknownPriceError();
        return { kind: 'credits', priceId: r.priceId, metadata: { pack }, pack };
      }
      case 'storage':
        return { kind: 'storage', priceId: required(prices.storage, 'the storage upgrade'), metadata: { addon: 'storage' } };
      case 'one-call':
        return { kind: 'one-call', priceId: required(prices.gateway?.[r.plugin], `one ${r.plugin} gateway call`), metadata: { plugin: r.plugin, grantId: r.grantId } };
    }
  }
}
