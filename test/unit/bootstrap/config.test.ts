import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/bootstrap/config.js';

const dir = () => mkdtempSync(join(tmpdir(), 'agent-host-config-'));

describe('configuration', () => {
  it('a bad value stops start-up with one line naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATA_DIR: dir() })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty', DATA_DIR: dir() })).toThrow(/^Invalid configuration: PORT: /);
    expect(() => loadConfig({ ENCRYPTION_KEY: 'short', DATA_DIR: dir() })).toThrow(/ENCRYPTION_KEY/);
    expect(() => loadConfig({ SERVICE_ROLE: 'everything', DATA_DIR: dir() })).toThrow(/SERVICE_ROLE/);
  });

  it('in production the secrets are required', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dir() })).toThrow(/JWT_SECRET: required in production/);
  });

  it('in development missing secrets are generated once and kept in DATA_DIR/secrets.json', () => {
    const d = dir();
    const first = loadConfig({ DATA_DIR: d });
    const second = loadConfig({ DATA_DIR: d });
    expect(first.JWT_SECRET).toHaveLength(64);
    expect(Buffer.from(first.ENCRYPTION_KEY, 'base64')).toHaveLength(32);
    expect(second.JWT_SECRET).toBe(first.JWT_SECRET);
    expect(second.COOKIE_SECRET).toBe(first.COOKIE_SECRET);
    expect(JSON.parse(readFileSync(join(d, 'secrets.json'), 'utf8')).JWT_SECRET).toBe(first.JWT_SECRET);
    expect(statSync(join(d, 'secrets.json')).mode & 0o777).toBe(0o600);
  });

  it('lists are trimmed and lower-cased; https APP_URL means secure cookies; the result is frozen', () => {
    const c = loadConfig({ DATA_DIR: dir(), ADMIN_EMAILS: ' Boss@X.test ,, b@y.test', APP_URL: 'https://agents.example.com/' });
    expect(c.ADMIN_EMAILS).toEqual(['boss@x.test', 'b@y.test']);
    expect(c.APP_URL).toBe('https://agents.example.com');
    expect(c.secureCookies).toBe(true);
    expect(Object.isFrozen(c)).toBe(true);
  });
});
