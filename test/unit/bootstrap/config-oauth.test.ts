import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/bootstrap/config.js';

const dirs: string[] = [];
const base = () => {
  const d = mkdtempSync(join(tmpdir(), 'agent-host-config-oauth-'));
  dirs.push(d);
  return { DATA_DIR: d };
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('OAuth configuration', () => {
  it('when nothing is set, then codehost points at a GitHub-style host and idp discovers at its issuer, all over https', () => {
    const c = loadConfig(base());
    expect(c.CODEHOST_CLIENT_ID).toBeUndefined();
    expect(c.CODEHOST_AUTHORIZATION_URL).toBe('https://github.com/login/oauth/authorize');
    expect(c.CODEHOST_EMAILS_URL).toBe('https://api.github.com/user/emails');
    expect(c.IDP_ISSUER_URL).toBe('https://accounts.google.com');
    expect(c.IDP_SCOPE).toBe('openid email profile');
    expect(c.OAUTH_TIMEOUT_MS).toBe(10_000);
  });

  it('when an endpoint is plain http to another host, then the start stops naming it; http to a loopback host is allowed', () => {
    expect(() => loadConfig({ ...base(), CODEHOST_TOKEN_URL: 'http://codehost.example/token' })).toThrow(/^Invalid configuration: CODEHOST_TOKEN_URL: must be https/);
    expect(() => loadConfig({ ...base(), IDP_ISSUER_URL: 'http://idp.example' })).toThrow(/IDP_ISSUER_URL/);
    expect(loadConfig({ ...base(), IDP_ISSUER_URL: 'http://127.0.0.1:8080' }).IDP_ISSUER_URL).toBe('http://127.0.0.1:8080');
  });
});
