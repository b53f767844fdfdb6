import { randomInt } from 'node:crypto';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../src/adapters/inbound/http/plugins/route-inventory.js';
import { allowed5xx, ALLOWED_5XX } from '../support/fuzz/allowed-5xx.js';
import { arbitraryOf, hostileText, hostileValue, jsonSchemaOf, twisted } from '../support/fuzz/schema-arbitrary.js';
import { keepSignedIn, secretsOf, seedUser } from '../support/fuzz/two-users.js';
import { bearer } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * Issue 12 item 5, hostile input: every registered route is called with input generated from its own zod
 * schema (through JSON Schema) and beyond it (wrong types, huge and odd text, deep nesting, prototype
 * keys, numbers as text, malformed JSON, odd headers), as user A by session, as A by API key and
 * anonymously. Held: never a 5xx (except the vendor answers listed below), every VALIDATION_ERROR with
 * `details` naming a path, every answer as the OpenAPI document describes it (test-app.ts), and never a byte of user
 * B's data (B's id, e-mail, agent, key, memory, session) in what A or an anonymous caller is answered.
 * FUZZ_SEED and FUZZ_RUNS replay or widen a run; the seed is printed with any failure.
 */
const SEED = Number(process.env.FUZZ_SEED ?? randomInt(2 ** 31));
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);

const decoded = (url: string) => {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
};

const { app, infra } = await startTestApp({
  env: { RATE_LIMIT_AUTH: '1000000', RATE_LIMIT_CHAT: '1000000', RATE_LIMIT_INSTANCE: '1000000', RATE_LIMIT_AGENTS: '1000000', RATE_LIMIT_GATEWAY: '1000000', INSTANCE_COMMAND_TIMEOUT_MS: '300' },
});
const owner = infra.pools.owner;
const a = await seedUser(app, owner, 'fuzz-a');
const b = await seedUser(app, owner, 'fuzz-b');
const bSecrets = secretsOf(b);

const routes = app.routeInventory();

/** Path parameter values: A's ids, B's ids, the schema's, and hostile text. */
function paramArb(route: RouteEntry, name: string) {
  const fromSchema = arbitraryOf(jsonSchemaOf(route.schema.params)?.properties?.[name] as never);
  // A's own ids most often, so the routes get past "not found" to their work
  const own = fc.constantFrom(a.user.id, a.agentId, a.apiKeyId, 'web-search', 'memory', 'event-scheduler', 'booking-settlement', 'treasury', 'webhook');
  const others = fc.constantFrom(b.user.id, b.agentId, b.apiKeyId);
  return fc.oneof(
    { weight: 4, arbitrary: own },
    { weight: 2, arbitrary: others },
    { weight: 1, arbitrary: fromSchema.map(String) },
    { weight: 1, arbitrary: hostileText.filter((t) => t.length > 0 && t.length < 5000) },
  );
}

/** Percent-encodes text, a lone surrogate included (as the bytes of an invalid UTF-8 sequence: more hostile still). */
const encodeAny = (s: string) =>
  [...s]
    .map((ch) => {
      try {
        return encodeURIComponent(ch);
      } catch {
        return '%ED%A0%80';
      }
    })
    .join('');

const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '');

function queryArb(route: RouteEntry) {
  const schema = jsonSchemaOf(route.schema.querystring);
  const shaped = fc.oneof(arbitraryOf(schema), twisted(schema), fc.constant({}));
  return fc.oneof(
    { weight: 4, arbitrary: shaped.map((q) => (q && typeof q === 'object' && !Array.isArray(q) ? Object.entries(q).map(([k, v]) => [k, asText(v)] as [string, string]) : [])) },
    { weight: 1, arbitrary: fc.array(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'a[b]', 'limit', 'offset', 'agentId', 'q', ''), hostileText.filter((t) => t.length < 2000)), { maxLength: 3 }) },
  ).map((pairs) => (pairs.length ? `?${new URLSearchParams(pairs)}` : ''));
}

const malformed = fc.constantFrom('{', '{"a":', '[1,2', 'null', '"just text"', '{"a":1}{"b":2}', '{"__proto__":{"admin":true}}', '\uFEFF{}', '{"a":"\\ud800"}');

function bodyArb(route: RouteEntry) {
  const schema = jsonSchemaOf(route.schema.body);
  return fc.oneof(
    { weight: 3, arbitrary: arbitraryOf(schema).map((v) => ({ json: v })) },
    { weight: 3, arbitrary: twisted(schema).map((v) => ({ json: v })) },
    { weight: 1, arbitrary: hostileValue.map((v) => ({ json: v })) },
    { weight: 1, arbitrary: malformed.map((raw) => ({ raw })) },
  );
}

const oddHeaders = fc.constantFrom<Record<string, string>>(
  {},
  {},
  { 'content-type': 'text/plain' },
  { 'content-type': 'application/json; charset=latin1' },
  { 'x-forwarded-for': '999.1.1.1, <script>' },
  { accept: 'text/event-stream' },
  { 'accept-language': '*;q=abc' },
  { origin: 'https://evil.example' },
  { 'x-csrf-token': 'x'.repeat(5000) },
  { 'content-type': 'application/x-www-form-urlencoded' },
  { 'content-type': 'multipart/form-data; boundary=x' },
  { 'content-encoding': 'gzip' },
  { 'x-http-method-override': 'DELETE' },
  { 'content-type': 'application/json', 'x-forwarded-proto': 'javascript' },
);
const anonymousCredentials = fc.constantFrom<Record<string, string>>(
  {},
  { authorization: 'Bearer ' },
  { authorization: 'Bearer ah_live_not-a-key' },
  { authorization: 'Basic Zm9vOmJhcg==' },
  { authorization: `Bearer ${'e'.repeat(9000)}` },
  { cookie: 'session=forged; csrf=forged' },
  { cookie: '__proto__=1; session=' },
);

function requestArb(route: RouteEntry) {
  const params = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  return fc
    .record({
      who: fc.constantFrom('session', 'key', 'anonymous'),
      anon: anonymousCredentials,
      params: fc.tuple(...params.map((p) => paramArb(route, p))),
      query: queryArb(route),
      body: hasBody ? bodyArb(route) : fc.constant(undefined),
      headers: oddHeaders,
    })
    .map((r) => {
      let i = 0;
      const url = route.url.replace(/:([A-Za-z]+)/g, () => encodeAny(r.params[i++]!));
      const credentials = r.who === 'session' ? a.user.headers : r.who === 'key' ? bearer(a.apiKey) : r.anon;
      const headers: Record<string, string> = { ...credentials, ...r.headers };
      const options: InjectOptions = { method: route.method as 'POST', url: url + r.query, headers };
      if (r.body && 'raw' in r.body) {
        options.payload = r.body.raw;
        headers['content-type'] ??= 'application/json';
      } else if (r.body && r.body.json !== undefined) {
        options.payload = JSON.stringify(r.body.json);
        headers['content-type'] ??= 'application/json';
      }
      return { who: r.who, options };
    });
}

describe(`every route under hostile input (FUZZ_SEED=${SEED})`, () => {
  it('the allowed 5xx list names registered routes only', () => {
    const names = routes.map((r) => `${r.method} ${r.url}`);
    for (const name of Object.keys(ALLOWED_5XX)) expect(names).toContain(name);
  });

  it.each(routes.map((r) => [`${r.method} ${r.url}`, r] as const))('%s: never a 5xx, never B\'s data', async (name, route) => {
    await keepSignedIn(app, owner, a);
    await fc.assert(
      fc.asyncProperty(requestArb(route), async ({ who, options }) => {
        const res = await app.inject(options);
        const where = `${who} ${options.method} ${String(options.url).slice(0, 300)}`;
        // FUZZ_DISCOVER=1: print every answer instead of failing on a 5xx, to see what a run reaches
        if (process.env.FUZZ_DISCOVER) console.error(`STATUS ${name} ${who} ${res.statusCode} ${res.statusCode < 500 ? (res.body.match(/"code":"([A-Z_]+)"/)?.[1] ?? '') : ''}`);
        if (process.env.FUZZ_DISCOVER && res.statusCode >= 500 && !allowed5xx(name, res.statusCode, res.body)) console.error(`DISCOVER ${name} ${res.statusCode} ${res.body.slice(0, 200)}`);
        else if (res.statusCode >= 500 && !allowed5xx(name, res.statusCode, res.body)) expect({ where, status: res.statusCode, body: res.body.slice(0, 500) }).toEqual({ where, status: 'below 500', body: expect.any(String) });
        // CONTRACT.md 8: every VALIDATION_ERROR says where
        if (res.statusCode === 400 && res.body.includes('"VALIDATION_ERROR"')) {
          const details = (res.json() as { details?: { path?: unknown }[] }).details;
          expect({ where, details: Array.isArray(details) && details.length > 0 && details.every((d) => typeof d.path === 'string') }).toEqual({ where, details: true });
        }
        const leaked = bSecrets.filter((s) => res.body.includes(s) || JSON.stringify(res.headers).includes(s));
        // B's ids may come back only as the caller sent them (an echo of the path or query is not B's data)
        const echoed = leaked.filter((s) => !decoded(String(options.url)).includes(s) && !String(options.payload ?? '').includes(s));
        expect({ where, leaked: echoed }).toEqual({ where, leaked: [] });
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});
