import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, isLoopbackHost, loadConfig } from '../../../src/bootstrap/config.js';

const made: string[] = [];
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'agent-host-config-'));
  made.push(d);
  return d;
};
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

const secrets = {
  JWT_SECRET: 'j'.repeat(40),
  COOKIE_SECRET: 'c'.repeat(40),
  ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
};

describe('configuration', () => {
  it('when secrets.json was left readable by others (an old copy, a umask), then the start makes it 0600 again; a new DATA_DIR is not listable by others', () => {
    const d = join(dir(), 'data');
    loadConfig({ DATA_DIR: d });
    expect(statSync(d).mode & 0o777).toBe(0o711);
    chmodSync(join(d, 'secrets.json'), 0o644);
    loadConfig({ DATA_DIR: d });
    expect(statSync(join(d, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(d, 'secrets.json')).uid).toBe(process.getuid!());
  });

  it('a bad value stops start-up with one line naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATA_DIR: dir() })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty', DATA_DIR: dir() })).toThrow(/^Invalid configuration: PORT: /);
    expect(() => loadConfig({ ENCRYPTION_KEY: 'short', DATA_DIR: dir() })).toThrow(/ENCRYPTION_KEY/);
    expect(() => loadConfig({ SERVICE_ROLE: 'everything', DATA_DIR: dir() })).toThrow(/SERVICE_ROLE/);
    expect(() => loadConfig({ ALLOW_UNSAFE_DEFAULTS: 'yes', DATA_DIR: dir() })).toThrow(/^Invalid configuration: ALLOW_UNSAFE_DEFAULTS: /);
  });

  it('when nothing is configured (a fresh clone), then the service is local and missing secrets are generated once into DATA_DIR/secrets.json', () => {
    const d = dir();
    const first = loadConfig({ DATA_DIR: d });
    const second = loadConfig({ DATA_DIR: d });
    expect(first).toMatchObject({ isLocal: true, unsafeDefaults: true, APP_URL: 'http://127.0.0.1:3000' });
    expect(first.JWT_SECRET).toHaveLength(64);
    expect(Buffer.from(first.ENCRYPTION_KEY, 'base64')).toHaveLength(32);
    expect(second.JWT_SECRET).toBe(first.JWT_SECRET);
    expect(second.COOKIE_SECRET).toBe(first.COOKIE_SECRET);
    expect(JSON.parse(readFileSync(join(d, 'secrets.json'), 'utf8')).JWT_SECRET).toBe(first.JWT_SECRET);
    expect(statSync(join(d, 'secrets.json')).mode & 0o777).toBe(0o600);
  });

  it.each([
    [{ APP_URL: 'http://localhost:3000' }],
    [{ APP_URL: 'http://127.8.9.10:8080/' }],
    [{ APP_URL: 'http://[::1]:3000' }],
    [{ HOST: '::1' }],
    [{ HOST: 'localhost', NODE_ENV: 'test' }],
  ])('when %j, then the service is local', (env) => {
    expect(loadConfig({ DATA_DIR: dir(), ...env })).toMatchObject({ isLocal: true, unsafeDefaults: true });
  });

  it.each([
    [{ NODE_ENV: 'production' }, 'NODE_ENV=production'],
    [{ APP_URL: 'https://x.example.com' }, 'APP_URL https://x.example.com'],
    [{ APP_URL: 'http://192.168.1.20:3000' }, 'APP_URL http://192.168.1.20:3000'],
    [{ HOST: '0.0.0.0' }, 'HOST 0.0.0.0'],
    [{ HOST: '::', APP_URL: 'http://localhost:3000' }, 'HOST ::'],
  ])('when %j and a secret is missing, then the start stops with one line naming it and why', (env, why) => {
    const d = dir();
    expect(() => loadConfig({ DATA_DIR: d, ...env })).toThrow(new ConfigError(`Invalid configuration: JWT_SECRET: required when the service is not local (${why})`));
    expect(() => loadConfig({ DATA_DIR: d, ...env, JWT_SECRET: secrets.JWT_SECRET })).toThrow(/^Invalid configuration: COOKIE_SECRET: required when the service is not local/);
    expect(existsSync(join(d, 'secrets.json'))).toBe(false);
    const c = loadConfig({ DATA_DIR: d, ...env, ...secrets });
    expect(c).toMatchObject({ isLocal: false, unsafeDefaults: false, ...secrets });
  });

  it('when not local but ALLOW_UNSAFE_DEFAULTS=true, then the development defaults apply (secrets generated)', () => {
    const d = dir();
    const c = loadConfig({ DATA_DIR: d, NODE_ENV: 'production', APP_URL: 'https://staging.example.com', ALLOW_UNSAFE_DEFAULTS: 'true' });
    expect(c).toMatchObject({ isLocal: false, unsafeDefaults: true, isProduction: true });
    expect(JSON.parse(readFileSync(join(d, 'secrets.json'), 'utf8')).JWT_SECRET).toBe(c.JWT_SECRET);
    expect(loadConfig({ DATA_DIR: dir(), ...secrets, APP_URL: 'https://x.example.com', ALLOW_UNSAFE_DEFAULTS: 'false' }).unsafeDefaults).toBe(false);
  });

  it('when STRIPE_SECRET_KEY is set without STRIPE_WEBHOOK_SECRET, then the start stops naming STRIPE_WEBHOOK_SECRET, local or not', () => {
    for (const env of [{}, { NODE_ENV: 'production', ...secrets }, { ALLOW_UNSAFE_DEFAULTS: 'true' }]) {
      expect(() => loadConfig({ DATA_DIR: dir(), ...env, STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(/^Invalid configuration: STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set/);
    }
    expect(loadConfig({ DATA_DIR: dir(), STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }).STRIPE_WEBHOOK_SECRET).toBe('whsec_x');
  });

  it('lists are trimmed and lower-cased; https APP_URL means secure cookies; the result is frozen', () => {
    const c = loadConfig({ DATA_DIR: dir(), ...secrets, ADMIN_EMAILS: ' Boss@X.test ,, b@y.test', APP_URL: 'https://agents.example.com/' });
    expect(c.ADMIN_EMAILS).toEqual(['boss@x.test', 'b@y.test']);
    expect(c.APP_URL).toBe('https://agents.example.com');
    expect(c.secureCookies).toBe(true);
    expect(Object.isFrozen(c)).toBe(true);
  });
});

describe('loopback hosts', () => {
  it.each(['localhost', 'LOCALHOST', '127.0.0.1', '127.1', '127.255.0.9', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])('%s is loopback', (h) => {
    expect(isLoopbackHost(h)).toBe(true);
  });
  it.each(['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', '::2', 'example.com', 'localhost.example.com', 'app.localhost', '', 'a b'])('%j is not', (h) => {
    expect(isLoopbackHost(h)).toBe(false);
  });
});

describe('several processes', () => {
  it('when a split role (api or worker) starts without shared secrets, then it stops with one line naming the missing ones, even local and with ALLOW_UNSAFE_DEFAULTS, and generates nothing', () => {
    for (const role of ['api', 'worker']) {
      const d = dir();
      expect(() => loadConfig({ SERVICE_ROLE: role, DATA_DIR: d })).toThrow(
        `Invalid configuration: JWT_SECRET, COOKIE_SECRET, ENCRYPTION_KEY: required with SERVICE_ROLE=${role} (every api and worker process must share JWT_SECRET, COOKIE_SECRET and ENCRYPTION_KEY)`,
      );
      expect(() => loadConfig({ SERVICE_ROLE: role, DATA_DIR: d, ALLOW_UNSAFE_DEFAULTS: 'true', JWT_SECRET: secrets.JWT_SECRET })).toThrow(/^Invalid configuration: COOKIE_SECRET, ENCRYPTION_KEY: required with SERVICE_ROLE=/);
      expect(existsSync(join(d, 'secrets.json'))).toBe(false);
      expect(loadConfig({ SERVICE_ROLE: role, DATA_DIR: d, ...secrets })).toMatchObject({ SERVICE_ROLE: role, ...secrets });
    }
    // one local process may still generate its own
    expect(loadConfig({ SERVICE_ROLE: 'all', DATA_DIR: dir() }).JWT_SECRET).toHaveLength(64);
  });

  it('when AGENT_SERVICE_URL is unset, then agent hosts call APP_URL; set, that address (an internal load balancer); not http(s), refused', () => {
    expect(loadConfig({ DATA_DIR: dir(), APP_URL: 'http://127.0.0.1:4000/' }).AGENT_SERVICE_URL).toBe('http://127.0.0.1:4000');
    expect(loadConfig({ DATA_DIR: dir(), AGENT_SERVICE_URL: 'http://10.0.0.5:8080/' }).AGENT_SERVICE_URL).toBe('http://10.0.0.5:8080');
    expect(() => loadConfig({ DATA_DIR: dir(), AGENT_SERVICE_URL: 'ftp://lb.internal' })).toThrow(/^Invalid configuration: AGENT_SERVICE_URL: must be http or https/);
    expect(() => loadConfig({ DATA_DIR: dir(), AGENT_SERVICE_URL: 'not a url' })).toThrow(/^Invalid configuration: AGENT_SERVICE_URL: /);
  });
});
