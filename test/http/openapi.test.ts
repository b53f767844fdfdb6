import { readFileSync } from 'node:fs';
import { OPERATION_NAMES } from '../../src/adapters/inbound/http/openapi/operation-names.js';
import { openApiDocument } from '../../src/bootstrap/openapi-document.js';
import { describe, expect, it } from 'vitest';
import { normalizePath, specEndpoints } from '../support/spec/spec-endpoints.js';
import { call, signUpAndIn } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * The OpenAPI 3.1 document at /api/openapi.json and the reference page at /docs (issue 12 item 4):
 * generated from the routes' zod schemas, covering every endpoint of the spec with its methods.
 */

/**
 * Spec endpoints this branch does not serve yet, each with its reason. The integrator removes a
 * line when the branch that serves it is merged; the test then holds it like every other.
 */
const NOT_ON_THIS_BRANCH: Record<string, string> = {};

/**
 * Routes whose success answer has no response schema, each with its reason. Their errors are still
 * documented (every route has the shared error body for 4xx and 5xx).
 */
const NO_SUCCESS_SCHEMA: Record<string, string> = {};

const { app } = await startTestApp();
const doc = (await call(app, { method: 'GET', url: '/api/openapi.json' })).body;
type Operation = { tags?: string[]; security?: unknown[]; operationId?: string; summary?: string; parameters?: { in: string; name: string }[]; requestBody?: { content: Record<string, { schema: unknown }> }; responses: Record<string, { description?: string; content?: Record<string, { schema: unknown }> }> };
const operations = Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, path, method: method.toUpperCase(), op })),
);

describe('the OpenAPI document', () => {
  it('when fetched without credentials, then it is OpenAPI 3.1 with the package version, the security schemes and tags', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: pkg.name, version: pkg.version });
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['bearer', 'payment', 'session']);
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie' });
    expect(doc.components.securitySchemes.payment).toMatchObject({ type: 'http', scheme: 'Payment' });
    // the credential names the payer's signature of the nonce
    expect(doc.components.securitySchemes.payment.description).toMatch(/"signature".*personal_sign of the exact challengeNonce/);
    expect(doc.components.schemas.Error).toMatchObject({ type: 'object', required: ['error'] });
    const declared = new Set((doc.tags as { name: string }[]).map((t) => t.name));
    expect(operations.filter(({ op }) => !op.tags?.every((t) => declared.has(t) || t === 'Platform')).map((o) => o.key)).toEqual([]);
  });

  it('when the spec names an endpoint, then the document has it with that method', () => {
    const documented = new Set(operations.map((o) => `${o.method} ${normalizePath(o.path)}`));
    const missing = [...specEndpoints()].filter((e) => !documented.has(e)).sort();
    expect(missing).toEqual(Object.keys(NOT_ON_THIS_BRANCH).sort());
  });

  it('when a route is public, then its operation says so; otherwise it takes the default session or Bearer security', () => {
    const byKey = new Map(operations.map((o) => [o.key, o.op]));
    expect(byKey.get('GET /api/health')!.security).toEqual([]);
    expect(byKey.get('GET /api/agents')!.security).toEqual([{}, { session: [] }, { bearer: [] }]);
    expect(byKey.get('GET /api/settings')!.security).toBeUndefined();
    expect(doc.security).toEqual([{ session: [] }, { bearer: [] }]);
  });

  it('when a route answers, then its success and its error bodies have schemas (or it is in the commented allow-list)', () => {
    const withoutErrors = operations.filter(({ op }) => !op.responses['4XX']?.content || !op.responses['5XX']?.content).map((o) => o.key);
    expect(withoutErrors).toEqual([]);
    // a status of its own: its success (200, 201, 302...), or the 410 of a deprecated route
    const isOwnStatus = (status: string) => /^\d{3}$/.test(status);
    const withoutSuccess = operations.filter(({ op }) => !Object.keys(op.responses).some(isOwnStatus)).map((o) => o.key);
    expect(withoutSuccess.sort()).toEqual(Object.keys(NO_SUCCESS_SCHEMA).sort());
  });

  it('when a route has response schemas, then the document shows them: the profile for GET /api/settings, the shared Error for its failures', () => {
    const settings = doc.paths['/api/settings'].get;
    const ok = JSON.stringify(settings.responses['200'].content['application/json'].schema);
    const profile = ok.includes('#/components/schemas/Profile') ? doc.components.schemas.Profile : JSON.parse(ok);
    expect(Object.keys(profile.properties).sort()).toEqual(['credits', 'email', 'emailVerified', 'id', 'name', 'notifications', 'plan', 'referralCode', 'twoFactorEnabled']);
    expect(JSON.stringify(settings.responses['4XX'].content['application/json'].schema)).toContain('#/components/schemas/Error');
    expect(Object.keys(doc.paths['/api/agents/provision'].post.responses)).toContain('201');
  });

  it('when a client is generated from it, then every operation has a summary and a unique camelCase operationId, each from the table', () => {
    const unnamed = operations.filter(({ op }) => !op.summary || !op.operationId).map((o) => o.key);
    expect(unnamed).toEqual([]);
    const ids = operations.map(({ op }) => op.operationId!);
    expect(ids.filter((id) => !/^[a-z][A-Za-z0-9]*$/.test(id))).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(new Set(Object.values(OPERATION_NAMES).map(([id]) => id)).size).toBe(Object.keys(OPERATION_NAMES).length);
    // no stale line: each names an operation the service has
    expect(Object.keys(OPERATION_NAMES).filter((k) => !operations.some((o) => o.key === k))).toEqual([]);
    expect(doc.paths['/api/agents/provision'].post.operationId).toBe('provisionAgent');
    expect(doc.paths['/api/chat'].post.operationId).toBe('sendChatMessage');
  });

  it('when answers are not JSON or bodies are checked in the handler, then the document still says what they are', () => {
    const op = (path: string, method: string) => doc.paths[path][method] as Operation;
    expect(Object.keys(op('/metrics', 'get').responses['200']!.content!)).toEqual(['text/plain; version=0.0.4']);
    for (const path of ['/api/runtime/chat', '/api/ai/chat']) expect(Object.keys(op(path, 'post').responses['200']!.content!).sort()).toEqual(['application/json', 'text/event-stream']);
    expect(op('/api/runtime/tools', 'post').responses['200']!.content!['application/json']).toBeDefined();
    for (const [path, method] of [['/api/ai/chat', 'post'], ['/api/v1/gateway', 'post'], ['/api/skills/{slug}', 'post'], ['/api/runtime/chat', 'post'], ['/api/runtime/tools', 'post']] as const) {
      expect({ path, body: op(path, method).requestBody?.content['application/json']?.schema }).toEqual({ path, body: expect.any(Object) });
    }
    const headers = (op('/api/ai/chat', 'post').parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    expect(headers).toEqual(expect.arrayContaining(['x-user-plan', 'x-payment-subscription-id']));
    // generators read `{}` as an empty object: config is an object, a memory value any JSON but null
    expect(op('/api/agents/{id}/config', 'put').requestBody!.content['application/json']!.schema).toMatchObject({ type: 'object' });
    expect((op('/api/memory', 'post').requestBody!.content['application/json']!.schema as any).properties.memory.type).toEqual(['object', 'array', 'string', 'number', 'boolean']);
  });

  it('when written without a database (npm run lint:openapi), then it is the document the service serves', async () => {
    expect(JSON.parse(JSON.stringify(await openApiDocument()))).toEqual(doc);
  });

  it('when the reference itself is described, then its own routes stay out of the document', () => {
    expect(operations.filter((o) => o.path.startsWith('/docs') || o.path === '/api/openapi.json')).toEqual([]);
  });
});

describe('the reference page at /docs', () => {
  it('when opened without credentials, then it loads only its own assets: no third-party source in its CSP', async () => {
    const page = await app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:|validator\.swagger\.io|\*/);
    for (const asset of [...page.body.matchAll(/(?:src|href)="\.?\/?([^"]+)"/g)].map((m) => m[1]!)) {
      expect(asset, 'an asset from another origin').not.toMatch(/^(https?:)?\/\//);
      const res = await app.inject({ method: 'GET', url: `/docs/${asset.replace(/^docs\//, '')}` });
      expect({ asset, status: res.statusCode }).toEqual({ asset, status: 200 });
    }
    const init = await app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
  });

  it('when a signed-in caller opens it, then it is the same page (public either way)', async () => {
    const u = await signUpAndIn(app);
    const res = await app.inject({ method: 'GET', url: '/docs/json', headers: { cookie: u.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toBe('3.1.0');
  });
});
