import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/bootstrap/config.js';
import { configuredAiProviders, localStartBanner, noAiProviderWarning } from '../../../src/bootstrap/start-notes.js';

const made: string[] = [];
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'agent-host-start-notes-'));
  made.push(d);
  return d;
};
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('what a start tells a person', () => {
  it('a fresh clone (nothing configured): the banner names the console, mail to this log, the free processor, the secrets file and no AI provider; one warning names the variables', () => {
    const dataDir = dir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.isLocal).toBe(true);
    const banner = localStartBanner(config);
    expect(banner.split('\n').filter(Boolean)).toEqual([
      'Agent Host is running locally.',
      '  Console:   http://127.0.0.1:3000',
      '  Mail:      not sent; each mail is written to this log ("development mail delivery"), each link of it on a line of its own',
      '  Payments:  the development processor: checkouts complete on this service and charge nothing',
      `  Secrets:   generated and kept in ${join(dataDir, 'secrets.json')}`,
      '  AI:        no provider configured: agents will not answer (README, "Talk to your agent")',
    ]);
    const warning = noAiProviderWarning(config)!;
    expect(warning.split('\n')).toHaveLength(1);
    for (const variable of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENROUTER_API_KEY', 'ANTHROPIC_API_KEY', 'GOOGLE_API_KEY', 'OLLAMA_BASE_URL']) expect(warning).toContain(variable);
  });

  it('configured: the providers that can answer are listed, no warning, no secrets line when all are given, and SMTP and Stripe are named', () => {
    const config = loadConfig({
      DATA_DIR: dir(),
      OPENAI_API_KEY: 'sk-local',
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      OLLAMA_BASE_URL: 'http://127.0.0.1:11434',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      JWT_SECRET: 'j'.repeat(40),
      COOKIE_SECRET: 'c'.repeat(40),
      ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
    });
    expect(configuredAiProviders(config)).toEqual(['openai', 'ollama']);
    expect(noAiProviderWarning(config)).toBeNull();
    const banner = localStartBanner(config);
    expect(banner).toContain('  AI:        openai, ollama\n');
    expect(banner).toContain('  Mail:      sent through SMTP_URL\n');
    expect(banner).toContain('  Payments:  Stripe (STRIPE_SECRET_KEY)\n');
    expect(banner).not.toContain('Secrets:');
  });
});
