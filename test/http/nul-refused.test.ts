import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../src/adapters/inbound/http/plugins/route-inventory.js';
import { bearer, call, signUpVerifiedAndIn } from '../support/http-client.js';
import { checkoutCompletedEvent, checkoutSession, signedStripeEvent } from '../support/payments/stripe-events.js';
import { startTestApp } from '../support/test-app.js';

/**
 * CONTRACT.md section 8: text PostgreSQL cannot store (a NUL character; lone surrogates: hostile-json.test.ts) is refused at the edge with
 * 400 VALIDATION_ERROR, wherever it is: a path parameter, the query, a body value, a nested value,
 * a key. Held as a property over every route the server registers, with nothing written.
 * Authentication comes first (onRequest): without credentials a route that needs them answers 401,
 * as it does for any other invalid input.
 */

const SECRET = `whsec_${randomBytes(24).toString('base64url')}`;
// The caller is an admin, so admin-only routes reach the check too.
const ADMIN = `nul-admin-${randomBytes(4).toString('hex')}@example.test`;
const { app, infra } = await startTestApp({ env: { STRIPE_WEBHOOK_SECRET: SECRET, RATE_LIMIT_CHAT: '10000', RATE_LIMIT_INSTANCE: '10000', ADMIN_EMAILS: ADMIN } });
const owner = infra.pools.owner;
const user = await signUpVerifiedAndIn(app, owner, { email: ADMIN });
const apiKey = (await call(app, { method: 'POST', url: '/api/keys', headers: user.headers, payload: { name: 'nul' } })).body.key as string;

/** Routes whose body is not parsed JSON: only their path and query pass through the edge's check. */
const BODY_NOT_JSON: Record<string, string> = {
  'POST /api/webhooks/psp': 'signed raw bytes: the webhook reader refuses NUL in what it keeps (below)',
  'POST /api/checkout': 'legacy: reads no body, answers 410',
};

const TABLES = ['users', 'sessions', 'api_keys', 'subscriptions', 'payment_customers', 'processed_events', 'credit_purchases', 'byok_keys', 'outbox', 'daily_usage', 'instances', 'agents', 'agent_events', 'agent_messages', 'channel_provisionings', 'agent_mailbox', 'agent_sessions', 'agent_credentials', 'agent_memory', 'heartbeats'];
/** Row counts of the tables a request could write, and a digest of every user row. */
async function snapshot() {
  const counts = TABLES.map((t) => `(select count(*) from ${t})::int as ${t}`).join(', ');
  const { rows } = await owner.query(`select ${counts}, (select md5(coalesce(string_agg(u::text, ',' order by id), '')) from users u) as users_digest`);
  return rows[0];
}

const plain = fc.string({ maxLength: 8 }).filter((k) => k !== '__proto__' && k !== 'constructor');
const nulText = fc.tuple(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 })).map(([a, b]) => `${a}\u0000${b}`);
const json = fc.jsonValue({ maxDepth: 2 }).filter((v) => !/__proto__|"constructor"/.test(JSON.stringify(v)));
const base = fc.dictionary(plain, json, { maxKeys: 4 });
/** `leaf` nested under a few keys. */
const nest = (path: string[], leaf: unknown): unknown => path.reduceRight<unknown>((acc, k) => ({ [k]: acc }), leaf);

/** A JSON object body with a NUL in one place: a value, a key, an array item, at some depth. */
const nulBody = fc
  .record({
    base,
    key: plain.filter((k) => k !== ''),
    path: fc.array(plain.filter((k) => k !== ''), { maxLength: 3 }),
    nul: nulText,
    other: json,
    form: fc.constantFrom('value', 'key', 'array item', 'top-level key'),
  })
  .map(({ base, key, path, nul, other, form }) => {
    switch (form) {
      case 'value':
        return { ...base, [key]: nest(path, nul) };
      case 'key':
        return { ...base, [key]: nest(path, { [nul]: other }) };
      case 'array item':
        return { ...base, [key]: nest(path, [other, nul]) };
      default:
        return { ...base, [nul]: other };
    }
  });

/** A query with a NUL in one of its keys or values. */
const nulQuery = fc
  .record({ base: fc.dictionary(plain.filter((k) => k !== ''), plain, { maxKeys: 3 }), nul: nulText, inKey: fc.boolean() })
  .map(({ base, nul, inKey }) => ({ ...base, ...(inKey ? { [nul]: 'x' } : { q: nul }) }));

function requestFor(route: RouteEntry) {
  const params = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  const takesBody = route.method !== 'GET' && !BODY_NOT_JSON[`${route.method} ${route.url}`];
  const where = fc.constantFrom(...(['query', ...(params.length ? ['params'] : []), ...(takesBody ? ['body'] : [])] as const));
  return fc.record({ where, body: nulBody, cleanBody: base, query: nulQuery, param: fc.constantFrom(...(params.length ? params : ['-'])), nul: nulText, withCredentials: fc.boolean() }).map((r) => {
    const url = route.url.replace(/:([A-Za-z]+)/g, (_m, name: string) => (r.where === 'params' && name === r.param ? encodeURIComponent(r.nul) : 'x'));
    const query = r.where === 'query' ? `?${new URLSearchParams(r.query)}` : '';
    const payload = route.method === 'GET' ? undefined : r.where === 'body' ? r.body : r.cleanBody;
    const credentials = route.auth !== 'none' && r.withCredentials;
    return {
      where: r.where,
      credentials,
      options: { method: route.method as 'POST', url: url + query, headers: credentials ? bearer(apiKey) : {}, ...(payload === undefined ? {} : { payload }) },
    };
  });
}

const routes = app.routeInventory();
/**
 * The agent host's calls: public to the session and key check, they take the instance's gateway
 * token, and a call without one is refused before its body is read (decision 0402); a NUL in the
 * query is still the edge guard's 400, which comes first.
 */
const GATEWAY_TOKEN_ROUTES = new Set(['POST /api/runtime/chat', 'POST /api/runtime/tools']);

describe('a NUL character anywhere in the input', () => {
  it('the routes without a JSON body named above are registered routes', () => {
    const names = routes.map((r) => `${r.method} ${r.url}`);
    for (const name of Object.keys(BODY_NOT_JSON)) expect(names).toContain(name);
  });

  it.each(routes.map((r) => [`${r.method} ${r.url}`, r] as const))('%s: 400 VALIDATION_ERROR (401 first without needed credentials), nothing written', async (_name, route) => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(requestFor(route), async ({ where, credentials, options }) => {
        const res = await call(app, options);
        // the OpenAI-compatible API answers in OpenAI's error shape: read as the house's codes here
        const openai = route.url.startsWith('/v1/');
        const error = res.body?.error;
        const code = openai ? (error?.code === 'invalid_api_key' ? 'AUTH_REQUIRED' : error?.type === 'invalid_request_error' ? 'VALIDATION_ERROR' : error?.code) : res.body?.code;
        const needsCredentials = route.auth === 'required' || route.auth === 'bearer';
        // the edge's guard reads the query and the path first; the host calls' door reads its body only after the token
        if ((needsCredentials && !credentials) || (where === 'body' && GATEWAY_TOKEN_ROUTES.has(`${route.method} ${route.url}`))) {
          expect({ status: res.status, code }).toEqual({ status: 401, code: 'AUTH_REQUIRED' });
          return;
        }
        expect({ status: res.status, code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
        if (openai) return;
        const part = { query: 'querystring/', params: 'params/', body: 'body/' }[where];
        expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: expect.stringMatching(new RegExp(`^${part}`)) })]));
      }),
      { numRuns: 8 },
    );
    expect(await snapshot()).toEqual(before);
  });

  it('a register name with a NUL: 400 VALIDATION_ERROR naming the field, no user created', async () => {
    const before = await snapshot();
    const res = await call(app, { method: 'POST', url: '/api/register', payload: { email: 'nul@example.test', password: 'long enough pass', name: 'a\u0000b' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'body/name' }] });
    expect(await snapshot()).toEqual(before);
  });

  it('an unknown URL with a NUL still answers 404', async () => {
    const res = await call(app, { method: 'POST', url: '/api/no-such-thing/%00?q=%00', payload: { a: '\u0000' } });
    expect({ status: res.status, code: res.body?.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  it('a NUL at the bottom of a body nested 60 deep: 400 VALIDATION_ERROR, its path cut short (deeper bodies are refused for their depth: hostile-json.test.ts)', async () => {
    const depth = 60;
    const payload = `${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`;
    const res = await call(app, { method: 'POST', url: '/api/ai/estimate-cost', headers: { 'content-type': 'application/json' }, payload });
    expect({ status: res.status, code: res.body?.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    expect(res.body.details[0].path).toBe(`body/${'0/'.repeat(32)}…`);
  });
});

describe('the payment webhook: signed bytes, checked for NUL in what it keeps', () => {
  const ledger = async (id: string) => (await owner.query('select count(*)::int n from processed_events where event_id = $1', [id])).rows[0].n;
  const deliver = (event: object) => {
    const signed = signedStripeEvent(SECRET, event);
    return call(app, { method: 'POST', url: '/api/webhooks/psp', headers: { 'content-type': 'application/json', 'psp-signature': signed.header }, payload: signed.body });
  };

  it('a signed event with a NUL in a field the service keeps: 400 WEBHOOK_PAYLOAD_INVALID, nothing applied', async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('id', 'type', 'session', 'email', 'customer', 'subscription'), nulText, async (field, nul) => {
        const session = checkoutSession({ client_reference_id: null, customer_details: null, customer_email: 'someone@example.test', customer: 'cus_nul', subscription: 'sub_nul', metadata: { plan: 'solo' } });
        if (field === 'session') session.id = nul;
        if (field === 'email') session.customer_email = nul;
        if (field === 'customer') session.customer = nul;
        if (field === 'subscription') session.subscription = nul;
        const event = checkoutCompletedEvent(session, { ...(field === 'id' && { id: nul }), ...(field === 'type' && { type: nul }) });
        const res = await deliver(event);
        expect({ field, status: res.status, code: res.body?.code }).toEqual({ field, status: 400, code: 'WEBHOOK_PAYLOAD_INVALID' });
        if (field !== 'id') expect(await ledger(event.id)).toBe(0); // (an id with a NUL cannot even be looked up)
      }),
      { numRuns: 12 },
    );
    expect(await snapshot()).toEqual(before);
  });

  it('a NUL in a field it ignores changes nothing: the event is applied', async () => {
    const event = checkoutCompletedEvent(checkoutSession({ client_reference_id: user.id, metadata: { plan: 'solo', note: 'a\u0000b' } }));
    const res = await deliver(event);
    expect(res.status).toBe(200);
    expect(await ledger(event.id)).toBe(1);
  });
});
