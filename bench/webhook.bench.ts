import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  checkoutCompletedEvent,
  checkoutSession,
  creditPackSession,
  invoice,
  invoiceEvent,
  signedStripeEvent,
  stripeEvent,
  subscription,
  subscriptionEvent,
} from '../test/support/payments/stripe-events.js';
import { benchDatabase, median, startBenchService } from './support.js';

/**
 * Webhook ingestion: `events` signed processor events of mixed kinds (credit packs, plan
 * checkouts, subscription updates and paid invoices that arrive in any order, types the service
 * ignores), a fifth of them duplicates shuffled in, posted with `concurrency` to the real service
 * in a child process. Afterwards the database must show every effect exactly once. The baseline
 * is the same number of POSTs of the same bodies to a trivial route of the same process (the
 * legacy POST /api/checkout: no verification, no database), measured before and after.
 */
export async function benchWebhook(opts: { events: number; concurrency: number }) {
  const db = await benchDatabase();
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const { child: app, base } = await startBenchService('src/bootstrap/main.ts', db.url, 'api', { STRIPE_WEBHOOK_SECRET: secret });
  const owner = new pg.Pool({ connectionString: db.url, max: 2 });
  try {
    const users = await seedUsers(owner, 100);
    const plan = planEvents(users, opts.events);
    const deliveries = plan.stream.map((event) => signedStripeEvent(secret, event));

    await post(`${base}/api/checkout`, deliveries.slice(0, 200), opts.concurrency); // warm-up
    const before = await post(`${base}/api/checkout`, deliveries, opts.concurrency);
    const hooks = await post(`${base}/api/webhooks/psp`, deliveries, opts.concurrency);
    const after = await post(`${base}/api/checkout`, deliveries, opts.concurrency);

    const problems = await verify(owner, plan, hooks.statuses);
    const baselineRate = (before.rate + after.rate) / 2;
    console.log(`\nPOST /api/webhooks/psp: ${deliveries.length} signed events (${plan.unique} distinct, ${deliveries.length - plan.unique} duplicates), concurrency ${opts.concurrency}`);
    console.log('path                  events/s   p50 ms   p99 ms  ratio');
    console.log(`baseline (trivial)  ${baselineRate.toFixed(0).padStart(10)} ${before.p50.toFixed(1).padStart(8)} ${before.p99.toFixed(1).padStart(8)}`);
    console.log(`webhook             ${hooks.rate.toFixed(0).padStart(10)} ${hooks.p50.toFixed(1).padStart(8)} ${hooks.p99.toFixed(1).padStart(8)}  ${(hooks.rate / baselineRate).toFixed(2)} of baseline`);
    console.log(problems.length ? `EFFECTS WRONG:\n  ${problems.join('\n  ')}` : `effects: each of the ${plan.unique} events took effect exactly once (ledger, credits, purchases, subscription states checked)`);
    if (problems.length) throw new Error('webhook benchmark: some effects did not happen exactly once');
    return { eventsPerSecond: hooks.rate, baseline: baselineRate, problems };
  } finally {
    await owner.end();
    app.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await db.drop();
  }
}

async function seedUsers(owner: pg.Pool, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => randomUUID());
  await owner.query(
    `INSERT INTO users (id, email, name, referral_code)
     SELECT id, 'bench-' || id || '@example.test', 'Bench', 'B' || substr(md5(id::text), 1, 12) FROM unnest($1::uuid[]) AS id`,
    [ids],
  );
  return ids;
}

const PACK_CREDITS: Record<string, number> = { '50': 5, '200': 15, '500': 30 };

interface EventPlan {
  stream: object[];
  unique: number;
  credits: Map<string, number>;
  creditEvents: number;
  subscriptions: Map<string, { userId: string; status: string }>;
}

/** Distinct events with their expected effects, then a fifth duplicates, all shuffled. */
function planEvents(users: string[], total: number): EventPlan {
  const unique = Math.round(total * 0.8);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
  const t0 = Math.floor(Date.now() / 1000) - 120;
  const events: object[] = [];
  const credits = new Map<string, number>();
  const subscriptions = new Map<string, { userId: string; status: string }>();

  const nSubs = Math.round(unique * 0.2);
  const nUpdates = Math.round(nSubs * 0.75);
  const nInvoices = Math.round(nUpdates * 0.5);
  const nUnknown = Math.round(unique * 0.1);
  const nCredits = unique - nSubs - nUpdates - nInvoices - nUnknown;
  for (let i = 0; i < nSubs; i++) {
    const userId = pick(users);
    const subId = `sub_bench_${i}_${randomBytes(4).toString('hex')}`;
    const customer = `cus_bench_${userId.slice(0, 8)}_${i}`;
    const plan = pick(['label', 'solo', 'collective', 'network']);
    events.push(checkoutCompletedEvent(checkoutSession({ client_reference_id: userId, customer, subscription: subId, metadata: { plan, kind: 'subscription' } }), { created: t0 }));
    let status = 'active';
    if (i < nUpdates) {
      events.push(subscriptionEvent('updated', subscription({ id: subId, customer, status: 'past_due', metadata: { plan, kind: 'subscription', userId } }), { created: t0 + 10 }));
      status = 'past_due';
    }
    if (i < nInvoices) {
      events.push(invoiceEvent('payment_succeeded', invoice({ subscriptionId: subId, customer }), { created: t0 + 20 }));
      status = 'active';
    }
    subscriptions.set(subId, { userId, status });
  }
  for (let i = 0; i < nUnknown; i++) events.push(stripeEvent(pick(['customer.created', 'payment_intent.succeeded', 'charge.refunded']), { id: `obj_${i}`, object: 'x' }));
  for (let i = 0; i < nCredits; i++) {
    const userId = pick(users);
    const pack = pick(['50', '200', '500']);
    events.push(checkoutCompletedEvent(creditPackSession(pack, { client_reference_id: userId })));
    credits.set(userId, (credits.get(userId) ?? 0) + PACK_CREDITS[pack]!);
  }
  const stream = [...events];
  for (let i = unique; i < total; i++) stream.push(pick(events));
  for (let i = stream.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [stream[i], stream[j]] = [stream[j]!, stream[i]!];
  }
  return { stream, unique, credits, creditEvents: nCredits, subscriptions };
}

/** Posts every body with `concurrency` workers; events per second and latency percentiles. */
async function post(url: string, deliveries: { body: string; header: string }[], concurrency: number) {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < deliveries.length) {
        const d = deliveries[next++]!;
        const t = performance.now();
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'psp-signature': d.header }, body: d.body });
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  return { rate: deliveries.length / seconds, p50: median(sorted), p99: sorted[Math.floor(sorted.length * 0.99)]!, statuses };
}

async function verify(owner: pg.Pool, plan: EventPlan, statuses: Map<number, number>): Promise<string[]> {
  const problems: string[] = [];
  const non200 = [...statuses].filter(([s]) => s !== 200);
  if (non200.length) problems.push(`non-200 answers: ${JSON.stringify(non200)}`);
  const ledger = (await owner.query('SELECT count(*)::int AS n FROM processed_events')).rows[0].n;
  if (ledger !== plan.unique) problems.push(`ledger holds ${ledger} events, expected ${plan.unique}`);
  const purchases = (await owner.query('SELECT count(*)::int AS n FROM credit_purchases')).rows[0].n;
  if (purchases !== plan.creditEvents) problems.push(`${purchases} credit purchases, expected ${plan.creditEvents}`);
  const { rows: users } = await owner.query('SELECT id, credits FROM users');
  for (const u of users) {
    const expected = plan.credits.get(u.id) ?? 0;
    if (u.credits !== expected) problems.push(`user ${u.id}: ${u.credits} credits, expected ${expected}`);
  }
  const { rows: subs } = await owner.query('SELECT processor_subscription_id AS id, user_id, status FROM subscriptions');
  if (subs.length !== plan.subscriptions.size) problems.push(`${subs.length} subscriptions, expected ${plan.subscriptions.size}`);
  for (const s of subs) {
    const expected = plan.subscriptions.get(s.id);
    if (!expected || expected.userId !== s.user_id || expected.status !== s.status) {
      problems.push(`subscription ${s.id}: ${s.user_id}/${s.status}, expected ${expected?.userId}/${expected?.status}`);
    }
  }
  return problems.slice(0, 20);
}
