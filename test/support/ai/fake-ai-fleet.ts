import type { AiProviderName } from '../../../src/domain/ai/ai-model.js';
import { startFakeAnthropicServer } from './fake-anthropic-server.js';
import type { FakeAiServer, FakeBehaviour } from './fake-ai-server.js';
import { startFakeGoogleServer } from './fake-google-server.js';
import { startFakeOpenAiServer } from './fake-openai-server.js';

/** The platform key each fake expects (ollama takes none). */
export const FLEET_KEYS = { openrouter: 'sk-or-fleet-key', openai: 'sk-openai-fleet-key', anthropic: 'sk-ant-fleet-key', google: 'google-fleet-key' } as const;

export interface FakeFleet {
  /** One local server per provider, speaking that provider's wire format. */
  readonly servers: Readonly<Partial<Record<AiProviderName, FakeAiServer>>>;
  /** The configuration that points the real adapters at them (keys and base URLs). */
  readonly env: Record<string, string>;
  server(name: AiProviderName): FakeAiServer;
  /** Every server gets this behaviour. */
  setAll(behaviour: FakeBehaviour): void;
  /** Requests of every server that were chat calls (not model lists). */
  chatRequests(): { provider: AiProviderName; model: string | undefined; path: string }[];
  close(): Promise<void>;
}

/**
 * Local stand-ins for the providers (all five by default): openrouter, openai and ollama speak
 * OpenAI's format, anthropic and google their own. OLLAMA_BASE_URL is given without `/v1`, as an
 * operator would write it.
 */
export async function startFakeFleet(providers: readonly AiProviderName[] = ['openrouter', 'openai', 'anthropic', 'google', 'ollama'], opts: { record?: boolean } = {}): Promise<FakeFleet> {
  const servers: Partial<Record<AiProviderName, FakeAiServer>> = {};
  const env: Record<string, string> = {};
  for (const name of providers) {
    if (name === 'ollama') {
      const s = await startFakeOpenAiServer({ record: opts.record });
      servers.ollama = s;
      env.OLLAMA_BASE_URL = s.url;
      continue;
    }
    const apiKey = FLEET_KEYS[name];
    const start = name === 'anthropic' ? startFakeAnthropicServer : name === 'google' ? startFakeGoogleServer : startFakeOpenAiServer;
    const s = await start({ apiKey, record: opts.record });
    servers[name] = s;
    const prefix = name.toUpperCase();
    env[`${prefix}_API_KEY`] = apiKey;
    env[`${prefix}_BASE_URL`] = s.baseUrl;
  }
  return {
    servers,
    env,
    server(name) {
      const s = servers[name];
      if (!s) throw new Error(`no fake server for ${name}`);
      return s;
    },
    setAll(behaviour) {
      for (const s of Object.values(servers)) s.setBehaviour(behaviour);
    },
    chatRequests() {
      return (Object.entries(servers) as [AiProviderName, FakeAiServer][]).flatMap(([provider, s]) =>
        s.requests
          .filter((r) => r.method === 'POST')
          .map((r) => ({ provider, model: r.body?.model ?? /models\/([^:]+):/.exec(r.path)?.[1], path: r.path })),
      );
    },
    async close() {
      await Promise.all(Object.values(servers).map((s) => s.close()));
    },
  };
}
