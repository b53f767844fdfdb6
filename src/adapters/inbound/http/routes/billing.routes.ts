import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CompleteDevCheckout } from '../../../../application/billing/complete-dev-checkout.use-case.js';
import type { DisableByok } from '../../../../application/billing/disable-byok.use-case.js';
import type { EnableByok } from '../../../../application/billing/enable-byok.use-case.js';
import type { GetBilling } from '../../../../application/billing/get-billing.use-case.js';
import type { GetCredits } from '../../../../application/billing/get-credits.use-case.js';
import type { GetSubscription } from '../../../../application/billing/get-subscription.use-case.js';
import type { GetUsage } from '../../../../application/billing/get-usage.use-case.js';
import type { GetUsageHistory } from '../../../../application/billing/get-usage-history.use-case.js';
import { UNITS_PER_CREDIT } from '../../../../domain/billing/units.js';
import type { ListUnmatchedPayments } from '../../../../application/billing/list-unmatched-payments.use-case.js';
import type { ReadDevBillingPortal } from '../../../../application/billing/read-dev-billing-portal.use-case.js';
import type { ChangeDevBillingPlan } from '../../../../application/billing/change-dev-billing-plan.use-case.js';
import type { OpenBillingPortal } from '../../../../application/billing/open-billing-portal.use-case.js';
import type { StartCheckout } from '../../../../application/billing/start-checkout.use-case.js';
import type { StartOneCallCheckout } from '../../../../application/gateway/start-one-call-checkout.use-case.js';
import type { Actor } from '../../../../application/auth/actor.js';
import { CREDIT_PACK_CATALOG } from '../../../../domain/billing/credit-packs.js';
import { billingPlan, checkoutPlan, parsePurchasablePlan } from '../../../../domain/billing/purchasable-plan.js';
import { priceText, subscriptionBody, unmatchedPaymentBody } from '../presenters/billing-presenters.js';
import { HttpEdgeError } from '../http-error.js';
import {
  BILLING_ACTIONS,
  billingActionBody,
  billingActionSchemas,
  devCompleteQuery,
  devPortalChangeBody,
  devPortalQuery,
  pspCheckoutQuery,
  pspCreditsQuery,
  pspOneCallQuery,
  subscriptionParams,
  unmatchedPaymentsQuery,
  type BillingAction,
  usageHistoryQuery,
} from '../schemas/billing.schema.js';
import type { RouteEdge } from './route-context.js';
import { usageHistoryResponse, billingActionResponse, billingResponse, checkoutUrlResponse, devPortalChangedResponse, devPortalResponse, creditsResponse, subscriptionResponse, unmatchedPaymentsResponse } from '../schemas/billing.responses.js';
import { redirectResponse } from '../schemas/accounts.responses.js';
import { errorBody } from '../schemas/error.schema.js';

const acceptsHtml = (accept: string | undefined): boolean => /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept ?? '');

const isBillingAction = (v: string): v is BillingAction => (BILLING_ACTIONS as readonly string[]).includes(v);

export interface BillingRouteDeps {
  startCheckout: StartCheckout;
  getBilling: GetBilling;
  getUsageHistory: GetUsageHistory;
  enableByok: EnableByok;
  disableByok: DisableByok;
  getUsage: GetUsage;
  openBillingPortal: OpenBillingPortal;
  getSubscription: GetSubscription;
  startOneCallCheckout: StartOneCallCheckout;
  getCredits: GetCredits;
  listUnmatchedPayments: ListUnmatchedPayments;
  completeDevCheckout: CompleteDevCheckout;
  readDevBillingPortal: ReadDevBillingPortal;
  changeDevBillingPlan: ChangeDevBillingPlan;
}

/**
 * Billing (spec "Billing and payments", J): a JWT, an API key or a session (CONTRACT.md section 4).
 * Checkouts only open a hosted page; plans and credits arrive with the processor's confirmation.
 */
export const billingRoutes: FastifyPluginAsyncZod<RouteEdge & BillingRouteDeps> = async (app, { startCheckout: checkout, getBilling, getUsageHistory, enableByok, disableByok, getUsage, openBillingPortal, getSubscription, startOneCallCheckout, getCredits, listUnmatchedPayments, completeDevCheckout, readDevBillingPortal, changeDevBillingPlan }) => {
  const config = { auth: 'required' as const };

  app.get('/api/billing', { schema: { response: { 200: billingResponse } }, config }, async (req) => {
    const b = await getBilling.execute(req.actor!);
    return { ...b, subscriptions: b.subscriptions.map(subscriptionBody) };
  });

  // not in the spec: units per UTC day for the console's usage chart
  app.get('/api/billing/usage', {
    schema: { summary: 'Units used per day', operationId: 'getUsageHistory', querystring: usageHistoryQuery, response: { 200: usageHistoryResponse } },
    config,
  }, async (req) => ({ ...(await getUsageHistory.execute(req.actor!, req.query.days)), unitsPerCredit: UNITS_PER_CREDIT }));

  app.post('/api/billing', { schema: { body: billingActionBody, response: { 200: billingActionResponse } }, config }, async (req) => {
    const { action } = req.body;
    if (!isBillingAction(action)) {
      throw new HttpEdgeError('UNKNOWN_ACTION', `Unknown action: use one of ${BILLING_ACTIONS.join(', ')}`, { allowed: [...BILLING_ACTIONS] });
    }
    return billingAction(req.actor!, action, req.body);
  });

  async function billingAction(actor: Actor, action: BillingAction, body: unknown) {
    switch (action) {
      case 'create-checkout': {
        const { plan } = billingActionSchemas[action].parse(body);
        return { url: (await checkout.execute(actor, { kind: 'subscription', plan: billingPlan(plan) })).url };
      }
      case 'enable-byok':
        return enableByok.execute(actor, billingActionSchemas[action].parse(body));
      case 'disable-byok':
        return disableByok.execute(actor, billingActionSchemas[action].parse(body));
      case 'get-usage': {
        billingActionSchemas[action].parse(body);
        const u = await getUsage.execute(actor);
        return { dailyUnits: u.dailyUnits, used: u.used, remaining: u.remaining };
      }
      case 'portal':
        billingActionSchemas[action].parse(body);
        return openBillingPortal.execute(actor);
      case 'buy-credits': {
        const { pack } = billingActionSchemas[action].parse(body);
        const { url } = await checkout.execute(actor, { kind: 'credits', pack });
        const offer = CREDIT_PACK_CATALOG[pack];
        return { success: true, credits: offer.credits, price: priceText(offer.priceUsd), url };
      }
    }
  }

  app.get('/api/billing/subscriptions/:id', { schema: { params: subscriptionParams, response: { 200: subscriptionResponse } }, config }, async (req) =>
    subscriptionBody(await getSubscription.execute(req.actor!, req.params.id)),
  );

  app.get('/api/psp/checkout', { schema: { querystring: pspCheckoutQuery, response: { 302: redirectResponse } }, config }, async (req, reply) => {
    const { url } = await checkout.execute(req.actor!, { kind: 'subscription', plan: checkoutPlan(req.query.plan) });
    return reply.redirect(url, 302);
  });

  app.get('/api/psp/credits', { schema: { querystring: pspCreditsQuery, response: { 302: redirectResponse } }, config }, async (req, reply) => {
    const { url } = await checkout.execute(req.actor!, { kind: 'credit-price', priceId: req.query.price });
    return reply.redirect(url, 302);
  });

  app.post('/api/psp/storage-upgrade', { schema: { response: { 200: checkoutUrlResponse } }, config }, async (req) => ({ url: (await checkout.execute(req.actor!, { kind: 'storage' })).url }));

  // The gateway 402's `psp.checkoutUrl`: one call of a plugin. A browser (Accept names text/html) is
  // sent to the checkout (303); any other client gets the URL to open.
  app.get('/api/v1/payments/psp/create', { schema: { querystring: pspOneCallQuery, response: { 200: checkoutUrlResponse, 303: redirectResponse } }, config }, async (req, reply) => {
    const { url } = await startOneCallCheckout.execute(req.actor!, req.query.plugin);
    if (acceptsHtml(req.headers.accept)) return reply.redirect(url, 303);
    return { url };
  });

  app.get('/api/credits', { schema: { response: { 200: creditsResponse } }, config }, async (req) => getCredits.execute(req.actor!));

  // Admins: processor events that matched no user, and whether and how they were attached since.
  app.get('/api/admin/payments/unmatched', { schema: { querystring: unmatchedPaymentsQuery, response: { 200: unmatchedPaymentsResponse } }, config: { auth: 'required', admin: true } }, async (req) => ({
    events: (await listUnmatchedPayments.execute(req.actor!, req.query)).map(unmatchedPaymentBody),
  }));

  // The development processor's "hosted page": the signed link is the capability, so no session is needed.
  app.get('/api/psp/dev/complete', { schema: { querystring: devCompleteQuery, response: { 302: redirectResponse } }, config: { auth: 'none' } }, async (req, reply) => {
    const { redirectTo } = await completeDevCheckout.execute(req.query.session);
    return reply.redirect(redirectTo, 302);
  });

  // The development processor's customer portal, shown by the console's /billing/portal page: the
  // signed session names the user, who must be signed in (decision 0390).
  app.get('/api/psp/dev/portal', {
    schema: { summary: 'The development billing portal: the plans it can change', operationId: 'readDevBillingPortal', querystring: devPortalQuery, response: { 200: devPortalResponse } },
    config: { auth: 'required' },
  }, async (req) => {
    const page = await readDevBillingPortal.execute(req.actor!, req.query.session);
    return {
      returnUrl: page.returnUrl,
      subscriptions: page.subscriptions.map((s) => ({ id: s.id, plan: s.plan.plan, catalog: s.plan.catalog, status: s.status, switchTo: s.switchTo.map((p) => p.plan) })),
    };
  });

  app.post('/api/psp/dev/portal', {
    schema: { summary: 'The development billing portal: switch or cancel a plan', operationId: 'changeDevBillingPlan', body: devPortalChangeBody, response: { 200: devPortalChangedResponse } },
    config: { auth: 'required' },
  }, async (req) => {
    const b = req.body;
    const plan = b.action === 'switch' ? parsePurchasablePlan(b.plan) : undefined;
    const choice = b.action === 'switch' ? { subscriptionId: b.subscriptionId, action: 'switch' as const, plan: plan! } : { subscriptionId: b.subscriptionId, action: 'cancel' as const };
    const { returnUrl } = await changeDevBillingPlan.execute(req.actor!, b.session, choice);
    return { success: true as const, returnUrl };
  });

  // Legacy: gone whatever is sent, so its own scope accepts (and ignores) any body.
  await app.register(async (legacy) => {
    legacy.removeAllContentTypeParsers();
    legacy.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, _body, done) => done(null, undefined));
    legacy.post('/api/checkout', { schema: { response: { 410: errorBody } }, config: { auth: 'none' } }, async () => {
      throw new HttpEdgeError('DEPRECATED', 'POST /api/checkout is gone: use GET /api/psp/checkout?plan=<plan>', { use: '/api/psp/checkout' });
    });
  });
};
