/** The document's tags, one per area of the spec's endpoint tables, and which URLs belong to each. */
export const TAGS: readonly { name: string; description: string; prefixes: readonly string[] }[] = [
  { name: 'Health and heartbeat', description: 'Host load, liveness and the heartbeat settings', prefixes: ['/api/health', '/health', '/api/heartbeat'] },
  { name: 'Social identity and token gating', description: 'Decentralized social sign-in and the on-chain gate', prefixes: ['/api/auth/social', '/api/auth/token-gating'] },
  { name: 'Accounts and sign-in', description: 'Registration, sign-in (password, OAuth, wallet), sessions, CSRF and tokens', prefixes: ['/api/register', '/api/auth'] },
  { name: 'Profile and settings', description: "The caller's own profile", prefixes: ['/api/settings'] },
  { name: 'API keys', description: 'Long-lived `sk_` keys for the Bearer scheme', prefixes: ['/api/keys'] },
  { name: 'Billing and payments', description: 'Plans, checkout, credits and the payment processor webhook', prefixes: ['/api/billing', '/api/psp', '/api/checkout', '/api/credits', '/api/webhooks/psp'] },
  { name: 'AI layer', description: 'Provider health, the model catalog and plan-gated chat', prefixes: ['/api/ai'] },
  { name: 'Agents', description: 'Agents, their configuration, messages, stats and verification', prefixes: ['/api/agents', '/api/provision'] },
  { name: 'Agent lifecycle and instance', description: "The owner's runtime instance", prefixes: ['/api/instance'] },
  { name: 'Agent interaction and chat', description: 'Talking to an agent, its sessions and credentials', prefixes: ['/api/chat', '/api/agent'] },
  { name: 'Agent runtime', description: "Called by an agent's own runtime with its gateway token", prefixes: ['/api/runtime'] },
  { name: 'Memory', description: "An agent's key-value memory", prefixes: ['/api/memory'] },
  { name: 'Skills', description: 'The skill catalog, installs and skill calls', prefixes: ['/api/skills'] },
  { name: 'Wallets', description: 'User wallets and the hosted wallet provider', prefixes: ['/api/wallet'] },
  { name: 'Gateway', description: 'The paid plugin gateway (session, processor or MPP payment)', prefixes: ['/api/v1'] },
  { name: 'OpenAI-compatible API', description: "OpenAI's Chat Completions and Models, for any OpenAI client library: base URL `<APP_URL>/v1`, an API key or JWT as the Bearer", prefixes: ['/v1'] },
  { name: 'Metrics', description: 'Platform and per-user figures', prefixes: ['/api/metrics', '/metrics'] },
];

const matches = (url: string, prefix: string) => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);

/** The tag of a URL; routes of areas not listed above fall under Platform. */
export const tagOf = (url: string): string => TAGS.find((t) => t.prefixes.some((p) => matches(url, p)))?.name ?? 'Platform';
