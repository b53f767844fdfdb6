import type { Config } from './config.js';

type AiKeys = Pick<Config, 'OPENROUTER_API_KEY' | 'OPENAI_API_KEY' | 'ANTHROPIC_API_KEY' | 'GOOGLE_API_KEY' | 'OLLAMA_BASE_URL'>;

/** The AI providers the platform can call with its own configuration (register-ai.ts: a key, or Ollama's URL). */
export function configuredAiProviders(c: AiKeys): string[] {
  return [
    c.OPENROUTER_API_KEY && 'openrouter',
    c.OPENAI_API_KEY && 'openai',
    c.ANTHROPIC_API_KEY && 'anthropic',
    c.GOOGLE_API_KEY && 'google',
    c.OLLAMA_BASE_URL && 'ollama',
  ].filter((p): p is string => Boolean(p));
}

/**
 * One plain line when no AI provider is configured: agents start and show "running", yet every
 * message would fail, and nothing else at start says why. Null when at least one is configured.
 */
export function noAiProviderWarning(c: AiKeys): string | null {
  if (configuredAiProviders(c).length > 0) return null;
  return (
    'No AI model provider is configured: agents will not answer. Set OPENAI_API_KEY (with OPENAI_BASE_URL for any ' +
    'OpenAI-compatible server, a local Ollama included), OPENROUTER_API_KEY, ANTHROPIC_API_KEY, GOOGLE_API_KEY or ' +
    'OLLAMA_BASE_URL (README, "Talk to your agent")'
  );
}

/**
 * What a person starting the service on their own machine needs to know, in a few lines: where the
 * console is, where mail goes, that payments are pretend, where the generated secrets are, and
 * which AI providers can answer. Only for a plainly local service (Config.isLocal).
 */
export function localStartBanner(c: Pick<Config, 'APP_URL' | 'SMTP_URL' | 'STRIPE_SECRET_KEY' | 'unsafeDefaults' | 'secretsFile'> & AiKeys): string {
  const providers = configuredAiProviders(c);
  const lines = [
    `Agent Host is running locally.`,
    `  Console:   ${c.APP_URL}`,
    c.SMTP_URL
      ? `  Mail:      sent through SMTP_URL`
      : `  Mail:      not sent; each mail is written to this log ("development mail delivery"), each link of it on a line of its own`,
    c.STRIPE_SECRET_KEY
      ? `  Payments:  Stripe (STRIPE_SECRET_KEY)`
      : c.unsafeDefaults
        ? `  Payments:  the development processor: checkouts complete on this service and charge nothing`
        : `  Payments:  none configured: nothing can be bought`,
    ...(c.secretsFile ? [`  Secrets:   generated and kept in ${c.secretsFile}`] : []),
    providers.length > 0
      ? `  AI:        ${providers.join(', ')}`
      : `  AI:        no provider configured: agents will not answer (README, "Talk to your agent")`,
  ];
  return `${lines.join('\n')}\n`;
}
