import { describe, expect, it } from 'vitest';
import { call } from '../support/http-client.js';
import { startTestApp } from '../support/test-app.js';

/** GET /api/auth/providers (CONTRACT.md section 7 "sign-in methods"): public, from configuration. */
describe('GET /api/auth/providers', () => {
  it('when nothing but passwords is configured on a local service, then only password and wallet, and mail goes to the log', async () => {
    const { app } = await startTestApp();
    const res = await call(app, { method: 'GET', url: '/api/auth/providers' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ password: true, codehost: false, idp: false, wallet: true, social: false, emailDelivery: 'log' });
  });

  it('when the providers and a mail relay are configured, then each is named, without a session', async () => {
    const { app } = await startTestApp({
      env: {
        CODEHOST_CLIENT_ID: 'gh-client', CODEHOST_CLIENT_SECRET: 'gh-secret',
        IDP_CLIENT_ID: 'idp-client', IDP_CLIENT_SECRET: 'idp-secret',
        SOCIAL_JWKS_URL: 'http://127.0.0.1:9/jwks', SOCIAL_ISSUER: 'https://issuer.example', SOCIAL_AUDIENCE: 'agent-host',
        SMTP_URL: 'smtp://127.0.0.1:9',
      },
    });
    const res = await call(app, { method: 'GET', url: '/api/auth/providers' });
    expect(res.body).toEqual({ password: true, codehost: true, idp: true, wallet: true, social: true, emailDelivery: 'smtp' });
    // one half of a provider's credentials is not a configured provider
    const half = await startTestApp({ env: { CODEHOST_CLIENT_ID: 'gh-client' } });
    expect((await call(half.app, { method: 'GET', url: '/api/auth/providers' })).body.codehost).toBe(false);
  });
});
