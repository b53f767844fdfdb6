import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** The built service refuses a configuration it must not run with: exit 1, one line on stderr, nothing started. */
const dataDir = mkdtempSync(join(tmpdir(), 'agent-host-refused-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const run = (env: Record<string, string>) =>
  spawnSync(process.execPath, ['scripts/start.mjs'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', DATA_DIR: dataDir, PORT: '0', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });

describe('a start that must not happen', () => {
  it.each([
    [{ STRIPE_SECRET_KEY: 'sk_live_x' }, 'Invalid configuration: STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set (payments would be taken and nothing granted)'],
    [{ NODE_ENV: 'production' }, 'Invalid configuration: JWT_SECRET: required when the service is not local (NODE_ENV=production)'],
    [{ APP_URL: 'https://x.example.com' }, 'Invalid configuration: JWT_SECRET: required when the service is not local (APP_URL https://x.example.com)'],
  ])('when %j, then it exits 1 with the one line "%s" and starts nothing', (env, line) => {
    const r = run(env);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`${line}\n`);
    expect(r.stdout).not.toContain('embedded PostgreSQL');
    expect(existsSync(join(dataDir, 'postgres'))).toBe(false);
    expect(existsSync(join(dataDir, 'secrets.json'))).toBe(false);
  }, 130_000);
});
