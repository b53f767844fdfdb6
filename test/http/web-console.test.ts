import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { webConsoleRoot } from '../../src/bootstrap/web-console-root.js';
import { CONSOLE_CSP } from '../../src/adapters/inbound/web/content-security-policy.js';
import { startTestApp } from '../support/test-app.js';

/** The web adapter as the HTTP edge sees it: the page, its assets, its headers, and what stays the API's. */
const { app } = await startTestApp();
const assets = readdirSync(join(webConsoleRoot(), 'assets'));
const script = assets.find((f) => /^app-[A-Z0-9]+\.js$/.test(f))!;

describe('the web console', () => {
  it.each(['/', '/onboarding', '/pricing', '/pay-per-call', '/settings', '/agents', '/agents/8c4f5c4e-0000-4000-8000-000000000000', '/no/such/page'])('serves the app at %s, never cached, with a strict policy', async (url) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toContain(`<script type="module" src="/assets/${script}"></script>`);
    // no inline script: the only script element loads the bundle
    expect(res.body.match(/<script/g)).toHaveLength(1);
  });

  it('serves hashed assets as immutable for a year', async () => {
    const res = await app.inject({ method: 'GET', url: `/assets/${script}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
  });

  it('answers a missing asset 404, not the page', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/app-OLDBUILD.js' });
    expect(res.statusCode).toBe(404);
  });

  it('leaves /api to the API: an unknown API path keeps its JSON 404', async () => {
    for (const url of ['/api/no-such-route', '/api', '/api/agents/x/y/z']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: expect.stringContaining('not found'), code: 'NOT_FOUND' });
    }
  });

  it('leaves other methods outside /api to the JSON 404 (the console only reads)', async () => {
    const res = await app.inject({ method: 'POST', url: '/settings', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });

  it('keeps the API reference at /docs', async () => {
    const res = await app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger');
  });
});
