import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { isLabelModelId, LABEL_MODEL_IDS } from '../domain/ai/model-catalog.js';

/**
 * Configuration, parsed once from the environment (CONTRACT.md section 2). Nothing else in
 * the service reads process.env: every part receives the frozen object this returns.
 */

const csv = z
  .string()
  .optional()
  .transform((s) => (s ?? '').split(',').map((x) => x.trim().toLowerCase()).filter(Boolean));
const perMinute = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const optionalUrl = z.string().url().optional();
const optionalText = z.string().min(1).optional();
const evmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x and 40 hex digits').transform((a) => a as `0x${string}`);
const percent = (fallback: number) => z.coerce.number().min(0).max(100).default(fallback);

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  SERVICE_ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  APP_URL: z.string().url().optional(),
  /**
   * Where agent hosts call the service back (`POST /api/runtime/chat`): meant for an internal load
   * balancer in front of every api process, so no one api process is a single point. Default APP_URL.
   */
  AGENT_SERVICE_URL: z.string().url().refine(isHttpUrl, 'must be http or https').optional(),
  /**
   * The development conveniences (generated secrets, the development payment processor, mail
   * printed to the log) on a service that is not plainly local. Off unless exactly `true`.
   */
  ALLOW_UNSAFE_DEFAULTS: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  DATABASE_URL: optionalUrl,
  APP_DATABASE_URL: optionalUrl,
  SYSTEM_DATABASE_URL: optionalUrl,
  DATA_DIR: z.string().default('./.data'),
  DB_POOL_SIZE: z.coerce.number().int().positive().default(10),
  JWT_SECRET: z.string().min(32).optional(),
  COOKIE_SECRET: z.string().min(32).optional(),
  ENCRYPTION_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64')
    .optional(),
  /** Retired ENCRYPTION_KEY values, comma-separated: they still open what they sealed, never seal. */
  ENCRYPTION_KEYS_PREVIOUS: z
    .string()
    .optional()
    .transform((s) => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean))
    .refine((keys) => keys.every((k) => Buffer.from(k, 'base64').length === 32), 'each must be 32 bytes, base64'),
  ADMIN_EMAILS: csv,
  TESTER_EMAILS: csv,
  REFERRAL_CREDITS: z.coerce.number().int().min(0).default(5),
  REDIS_URL: optionalUrl,
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Agent Host <no-reply@localhost>'),
  TURNSTILE_SECRET_KEY: optionalText,
  TURNSTILE_BASE_URL: z.string().url().default('https://challenges.cloudflare.com'),
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  /** Tests and local stand-ins point the Stripe SDK elsewhere, e.g. http://127.0.0.1:12111. */
  STRIPE_API_BASE_URL: optionalUrl,
  STRIPE_PRICE_SOLO: optionalText,
  STRIPE_PRICE_COLLECTIVE: optionalText,
  STRIPE_PRICE_LABEL: optionalText,
  STRIPE_PRICE_NETWORK: optionalText,
  STRIPE_PRICE_STARTER: optionalText,
  STRIPE_PRICE_PRO: optionalText,
  STRIPE_PRICE_SCALE: optionalText,
  STRIPE_PRICE_CREDITS_50: optionalText,
  STRIPE_PRICE_CREDITS_200: optionalText,
  STRIPE_PRICE_CREDITS_500: optionalText,
  STRIPE_PRICE_STORAGE: optionalText,
  /** One call of a gateway plugin, bought by GET /api/v1/payments/psp/create?plugin= (a one-off price). */
  STRIPE_PRICE_GATEWAY_GENERATE_TEXT: optionalText,
  STRIPE_PRICE_GATEWAY_AGENT: optionalText,
  STRIPE_PRICE_GATEWAY_TTS: optionalText,
  STRIPE_PRICE_GATEWAY_STT: optionalText,
  STRIPE_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  OPENROUTER_API_KEY: optionalText,
  OPENROUTER_BASE_URL: optionalUrl,
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalUrl,
  ANTHROPIC_API_KEY: optionalText,
  ANTHROPIC_BASE_URL: optionalUrl,
  GOOGLE_API_KEY: optionalText,
  GOOGLE_BASE_URL: optionalUrl,
  OLLAMA_BASE_URL: optionalUrl,
  DEFAULT_MODEL: optionalText.refine((v) => v === undefined || isLabelModelId(v.trim()), `must be one of ${LABEL_MODEL_IDS.join(', ')}`),
  AI_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  AI_HEALTH_TTL_MS: z.coerce.number().int().positive().default(30_000),
  /** Open usage reservations older than this are released by the worker (default: the larger of 10 min and 5 × AI_TIMEOUT_MS). */
  RESERVATION_STALE_MS: z.coerce.number().int().positive().optional(),
  RATE_LIMIT_GATEWAY: perMinute(100),
  RATE_LIMIT_AGENTS: perMinute(100),
  RATE_LIMIT_CHAT: perMinute(60),
  RATE_LIMIT_INSTANCE: perMinute(30),
  RATE_LIMIT_AUTH: perMinute(10),
  HEALTH_DEGRADED_PERCENT: percent(70),
  HEALTH_UNHEALTHY_PERCENT: percent(85),
  ARGON2_MEMORY_KIB: z.coerce.number().int().min(1024).default(19_456),
  ARGON2_TIME_COST: z.coerce.number().int().min(1).default(2),
  // API keys carry 256 random bits: the work factor guards nothing a guess could reach (docs/decisions/0361-api-key-bcrypt-cost.md)
  BCRYPT_ROUNDS: z.coerce.number().int().min(4).max(15).default(6),
  /** API-key bcrypt checks running at once on libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE says otherwise). */
  BCRYPT_MAX_CONCURRENT: z.coerce.number().int().min(1).max(64).default(2),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  /** Bearer token a Prometheus scraper sends to GET /metrics; unset: /metrics answers loopback callers only. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** `storage.total` of GET /api/metrics, MB: the quota of the database's volume (the database cannot see its disk). */
  METRICS_STORAGE_TOTAL_MB: z.coerce.number().positive().default(10_240),
  /** How long GET /api/metrics (public) reuses its figures. */
  METRICS_CACHE_MS: z.coerce.number().int().min(0).default(10_000),
  /** How often an api process writes its per-minute request timings (one batched statement). */
  METRICS_FLUSH_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * Where agents run (CONTRACT.md section 7): `process`, one forked agent-host program per user
   * instance, or `docker`, one container per user instance through the Docker Engine API.
   */
  AGENT_RUNTIME: z.enum(['process', 'docker']).default('process'),
  /**
   * AGENT_RUNTIME=docker: the Engine API, as the docker CLI reads it: `unix:///path` or
   * `tcp://host:port` (TLS with DOCKER_TLS_VERIFY and the ca.pem, cert.pem, key.pem in DOCKER_CERT_PATH).
   */
  DOCKER_HOST: z.string().trim().min(1).default('unix:///var/run/docker.sock'),
  /** Any non-empty value (the CLI's rule): TLS to a tcp:// DOCKER_HOST, the daemon checked against ca.pem. */
  DOCKER_TLS_VERIFY: z
    .string()
    .optional()
    .transform((v) => v !== undefined && v !== ''),
  DOCKER_CERT_PATH: z.string().trim().min(1).default(join(homedir(), '.docker')),
  /**
   * The network the agent containers join: one the operator made internal, with the service on it.
   * Unset: no network at all, the program's service calls travel on the attach stream.
   */
  AGENT_DOCKER_NETWORK: z.string().trim().min(1).optional(),
  /** Each agent container's CPU cap, in CPUs. */
  AGENT_DOCKER_CPUS: z.coerce.number().positive().max(1024).default(1),
  /**
   * `1`: the agent-host programs honour their test messages (allocate memory, block). Refused
   * unless NODE_ENV=test: a service in use never lets anyone make an agent misbehave on demand.
   */
  RUNTIME_TEST_HOOKS: z.enum(['0', '1']).default('0'),
  /** AGENT_RUNTIME=docker: the agent-host image each instance's container runs. */
  RUNTIME_DOCKER_IMAGE: z.string().trim().min(1).default('agent-host-runtime:latest'),
  RUNTIME_START_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  RUNTIME_STOP_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
  /** The agent-host's idle timeout on its call to the service (no answer, no stream progress). */
  RUNTIME_REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  RUNTIME_WATCHDOG_INTERVAL_MS: z.coerce.number().int().positive().default(1_000),
  /**
   * AGENT_RUNTIME=process: how the programs' chat and tool calls reach the service. `ipc`: over the
   * program's IPC channel, answered in the worker's own process (no HTTP request, decision 0372);
   * `http`: `POST AGENT_SERVICE_URL/api/runtime/chat` as any other runtime; `auto`: `ipc` when
   * this process answers as the api would (SERVICE_ROLE=all, or a worker with an AI provider
   * configured of its own), else `http`.
   */
  RUNTIME_SERVICE_CALLS: z.enum(['auto', 'ipc', 'http']).default('auto'),
  /**
   * When the service runs as root, each instance's agent-host program runs under its own uid (and a
   * gid of the same number) from this inclusive range, `first-last`; no /etc/passwd entry is needed.
   * `off`: every program runs as RUNTIME_RUN_AS_USER. Ignored when not root (the programs then run as
   * the service's own user).
   */
  RUNTIME_UID_RANGE: z
    .string()
    .trim()
    .default('1900000000-1900065535')
    .transform((v, ctx) => {
      if (v === 'off') return null;
      const m = /^(\d+)-(\d+)$/.exec(v);
      const [first, last] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
      // above the accounts a machine hands out (and `nobody`), below (uid_t)-1
      if (!(first >= 100_000 && last >= first && last <= 4_294_967_294)) {
        ctx.addIssue({ code: 'custom', message: 'must be `first-last` with 100000 <= first <= last <= 4294967294, or `off`' });
        return z.NEVER;
      }
      return { first, last };
    }),
  /** When the service runs as root and RUNTIME_UID_RANGE is `off`, the agent-host programs run as this OS user; empty: as root. */
  RUNTIME_RUN_AS_USER: z.string().trim().default('nobody'),
  /** Runtime ownership: a worker's lease on an instance lasts this long unless its heartbeat renews it. */
  INSTANCE_LEASE_MS: z.coerce.number().int().min(1_000).default(15_000),
  /** How often a worker renews its leases, takes over orphaned instances and checks its runtimes. */
  INSTANCE_HEARTBEAT_MS: z.coerce.number().int().min(100).default(5_000),
  /** How long an api process waits for the owning worker to answer a lifecycle call (then 502). */
  INSTANCE_COMMAND_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /** How long POST /api/chat waits for the agent's answer before answering 202 (the answer still arrives in the history). */
  AGENT_REPLY_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  /** The mailbox's slow look at the database behind NOTIFY (workers, and requests waiting for an answer). */
  AGENT_MAILBOX_POLL_MS: z.coerce.number().int().positive().default(5_000),
  /** A message left `working` this long with no answer in progress (its worker died) is queued again. */
  AGENT_MAILBOX_STALE_MS: z.coerce.number().int().positive().default(600_000),
  /** The RPC node `eas` verification reads attestations from; unset: accepted on format (CONTRACT.md section 7). */
  EAS_RPC_URL: optionalUrl,
  /** The EAS contract read on that chain: Base's predeploy by default. */
  EAS_CONTRACT_ADDRESS: evmAddress.default('0x4200000000000000000000000000000000000021'),
  /** The RPC node `ens` verification resolves names through (Ethereum mainnet's); unset: the name is recorded unchecked. */
  ENS_RPC_URL: optionalUrl,
  /** The ENS universal resolver on that chain: mainnet's by default. */
  ENS_UNIVERSAL_RESOLVER_ADDRESS: evmAddress.default('0xeEeEEEeE14D718C2B47D9923Deab1335E144EeEe'),
  /** Bound on each verification RPC call (then 502). */
  VERIFICATION_RPC_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** At most this many model calls per answer while the agent uses its skills as tools (the last one may not call tools). */
  AGENT_MAX_TOOL_STEPS: z.coerce.number().int().min(1).max(50).default(5),
  /** The webhook skill refuses loopback, private and link-local targets unless this is true (local development and tests). */
  SKILL_WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /** How long the webhook skill waits for a target's answer before the call is a 502. */
  SKILL_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Outbound event webhooks (admin-registered endpoints) may target loopback and private addresses. Off unless exactly `true`. */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Retries after the first try of an event delivery, then the dead-letter queue. */
  WEBHOOK_RETRY_LIMIT: z.coerce.number().int().min(0).max(50).default(8),
  /** The first retry's delay; each later one doubles (with jitter), capped at one hour. */
  WEBHOOK_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).default(30),
  /** The same for the account mail job (with SMTP_URL set). */
  MAIL_RETRY_LIMIT: z.coerce.number().int().min(0).max(50).default(6),
  MAIL_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).default(30),
  /** The Base RPC node: wallet sign-in (ERC-1271/6492 checks), token gating, wallet balances. Unset: those answer 502/503, the service still starts. */
  BASE_RPC_URL: optionalUrl,
  /** MPP (gateway payments on chain, CONTRACT.md sections 2 and 7). Unset MPP_RPC_URL, MPP_TOKEN_ADDRESS or MPP_RECIPIENT: MPP is not offered. */
  MPP_RPC_URL: optionalUrl,
  MPP_CHAIN_ID: z.coerce.number().int().positive().default(8453),
  MPP_TOKEN_ADDRESS: evmAddress.optional(),
  MPP_TOKEN_DECIMALS: z.coerce.number().int().min(0).max(36).default(6),
  MPP_RECIPIENT: evmAddress.optional(),
  MPP_CONFIRMATIONS: z.coerce.number().int().min(1).max(1000).default(1),
  /** Bound on each MPP RPC call (then 502, nothing consumed). */
  MPP_RPC_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * The account that submits x402 / EIP-3009 `transferWithAuthorization` settlements and pays their
   * gas (decision 0430). Unset: the gateway offers no x402 payment (no PAYMENT-REQUIRED header);
   * the transaction-hash credential still works.
   */
  MPP_SETTLER_PRIVATE_KEY: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x and 64 hex digits').transform((k) => k as `0x${string}`).optional(),
  /** Gas limit of one settlement transaction: a transfer whose estimate is above it is not sent (502). */
  MPP_SETTLER_MAX_GAS: z.coerce.number().int().min(50_000).max(5_000_000).default(300_000),
  /** How long a settlement may take to reach MPP_CONFIRMATIONS before the call answers 502 (the same payment resumes it). */
  MPP_SETTLE_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  /** How large a prepaid gateway call (MPP or a one-call purchase) may be: max_tokens, and characters of prompt. */
  GATEWAY_PREPAID_MAX_TOKENS: z.coerce.number().int().min(1).max(1_000_000).default(4096),
  GATEWAY_PREPAID_MAX_INPUT_CHARS: z.coerce.number().int().min(1).max(200_000).default(32_000),
  GATEWAY_PREPAID_MAX_AUDIO_SECONDS: z.coerce.number().int().min(1).max(3_600).default(120),
  /** Price per call of each gateway plugin, decimal token units (`MPP_PRICE_GENERATE_TEXT=0.01`). */
  MPP_PRICE_GENERATE_TEXT: z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal such as 0.01').default('0.01'),
  MPP_PRICE_AGENT: z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal such as 0.05').default('0.05'),
  MPP_PRICE_TTS: z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal such as 0.02').default('0.02'),
  MPP_PRICE_STT: z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal such as 0.02').default('0.02'),
  /** Token gating: the ERC-20 on Base whose balance gates, and the least balance (decimal token units). */
  TOKEN_GATE_ADDRESS: evmAddress.optional(),
  TOKEN_GATE_MIN_BALANCE: z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal').default('1'),
  /** Social identity tokens (fidToken): the issuer's JWKS, issuer and audience, all pinned. */
  SOCIAL_JWKS_URL: optionalUrl,
  SOCIAL_ISSUER: optionalText,
  SOCIAL_AUDIENCE: optionalText,
  /** OAuth clients (CONTRACT.md section 2); the endpoint overrides point tests at a local provider. */
  CODEHOST_CLIENT_ID: optionalText,
  CODEHOST_CLIENT_SECRET: optionalText,
  IDP_CLIENT_ID: optionalText,
  IDP_CLIENT_SECRET: optionalText,
  /** codehost is plain OAuth 2 with fixed endpoints (a GitHub-style host by default; tests point them at a local provider). */
  CODEHOST_AUTHORIZATION_URL: z.string().url().default('https://github.com/login/oauth/authorize'),
  CODEHOST_TOKEN_URL: z.string().url().default('https://github.com/login/oauth/access_token'),
  /** The signed-in person's profile: `sub` or `id`, `email`, and `email_verified` when the host gives it. */
  CODEHOST_USERINFO_URL: z.string().url().default('https://api.github.com/user'),
  /** Read only when the profile has no `email_verified`: a list of `{email, primary, verified}`. */
  CODEHOST_EMAILS_URL: z.string().url().default('https://api.github.com/user/emails'),
  CODEHOST_SCOPE: z.string().trim().min(1).default('read:user user:email'),
  /** idp is OpenID Connect, found by discovery at this issuer. */
  IDP_ISSUER_URL: z.string().url().default('https://accounts.google.com'),
  IDP_SCOPE: z.string().trim().min(1).default('openid email profile'),
  /** Bound on each call to an OAuth provider (then 502). */
  OAUTH_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** The hosted-wallet provider: "configured" means both are set. */
  HOSTED_WALLET_API_KEY: optionalText,
  HOSTED_WALLET_PROJECT_ID: optionalText,
  /** Users' wallets live on this network, read and signed through BASE_RPC_URL: `base` (chain 8453) or `base-sepolia` (84532). */
  WALLET_NETWORK: z.enum(['base', 'base-sepolia']).default('base'),
  /** The ERC-20 wallets show and pay with; unset: the network's USDC. */
  WALLET_TOKEN_ADDRESS: evmAddress.optional(),
  WALLET_TOKEN_DECIMALS: z.coerce.number().int().min(0).max(36).default(6),
  WALLET_TOKEN_SYMBOL: z.string().trim().min(1).max(16).default('USDC'),
  /** Bound on each wallet RPC call, a transfer's receipt included (then 502). */
  WALLET_RPC_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
});

type Env = z.infer<typeof schema>;

/** http(s) only; a text that is no URL at all is reported by `.url()` already. */
function isHttpUrl(u: string): boolean {
  try {
    return /^https?:$/.test(new URL(u).protocol);
  } catch {
    return false;
  }
}

const OAUTH_URL_KEYS = ['CODEHOST_AUTHORIZATION_URL', 'CODEHOST_TOKEN_URL', 'CODEHOST_USERINFO_URL', 'CODEHOST_EMAILS_URL', 'IDP_ISSUER_URL'] as const;
type Secrets = { JWT_SECRET: string; COOKIE_SECRET: string; ENCRYPTION_KEY: string };

export type Config = Readonly<
  Omit<Env, keyof Secrets | 'APP_URL' | 'AGENT_SERVICE_URL' | 'DATA_DIR' | 'RESERVATION_STALE_MS'> &
    Secrets & {
      APP_URL: string;
      /** AGENT_SERVICE_URL, or APP_URL when unset; no trailing slash. */
      AGENT_SERVICE_URL: string;
      DATA_DIR: string;
      RESERVATION_STALE_MS: number;
      isProduction: boolean;
      /** NODE_ENV is not `production` and both HOST and APP_URL are loopback addresses. */
      isLocal: boolean;
      /**
       * Whether what gives value away or exposes secrets may run: generated secrets in
       * DATA_DIR/secrets.json, the development payment processor, mail printed to the log.
       * True for a local service or with ALLOW_UNSAFE_DEFAULTS=true (CONTRACT.md section 2).
       */
      unsafeDefaults: boolean;
      /** https APP_URL: cookies are Secure and carry the __Host- prefix. */
      secureCookies: boolean;
      /** DATA_DIR/secrets.json when a secret was not given and comes from there (generated); else null. */
      secretsFile: string | null;
    }
>;

export class ConfigError extends Error {}

/** Parses `env` once. Throws ConfigError with one line naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    // Checkouts would take money and no webhook could be verified to grant what was bought.
    throw new ConfigError('Invalid configuration: STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set (payments would be taken and nothing granted)');
  }
  for (const key of OAUTH_URL_KEYS) {
    const url = new URL(e[key]);
    // Codes and tokens cross these: plain http only to a provider on this machine (tests, local stand-ins).
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
      throw new ConfigError(`Invalid configuration: ${key}: must be https (plain http only to a loopback host)`);
    }
  }
  if (e.RUNTIME_TEST_HOOKS === '1' && e.NODE_ENV !== 'test') {
    throw new ConfigError('Invalid configuration: RUNTIME_TEST_HOOKS: only with NODE_ENV=test');
  }
  const isProduction = e.NODE_ENV === 'production';
  const dataDir = resolve(e.DATA_DIR);
  const appUrl = (e.APP_URL ?? defaultAppUrl(e.HOST, e.PORT)).replace(/\/$/, '');
  const notLocal = notLocalBecause(e, appUrl);
  const unsafeDefaults = notLocal === null || e.ALLOW_UNSAFE_DEFAULTS;
  const secrets = resolveSecrets(e, unsafeDefaults ? null : notLocal, dataDir);
  const secretsGiven = Boolean(e.JWT_SECRET && e.COOKIE_SECRET && e.ENCRYPTION_KEY);
  return Object.freeze({
    ...e,
    ...secrets,
    RESERVATION_STALE_MS: reservationStaleMs(e),
    APP_URL: appUrl,
    AGENT_SERVICE_URL: (e.AGENT_SERVICE_URL ?? appUrl).replace(/\/$/, ''),
    DATA_DIR: dataDir,
    isProduction,
    isLocal: notLocal === null,
    unsafeDefaults,
    secureCookies: appUrl.startsWith('https://'),
    secretsFile: secretsGiven ? null : join(dataDir, 'secrets.json'),
  });
}

/**
 * A reservation is stale once no live call can still settle it. A call may try several candidates,
 * each bounded by AI_TIMEOUT_MS (a stream's is an idle timeout), so the bound keeps a wide margin:
 * at least 5 × AI_TIMEOUT_MS, 10 minutes by default.
 */
function reservationStaleMs(e: Env): number {
  const floor = 5 * e.AI_TIMEOUT_MS;
  const value = e.RESERVATION_STALE_MS ?? Math.max(600_000, floor);
  if (value < floor) throw new ConfigError(`Invalid configuration: RESERVATION_STALE_MS: must be at least 5 × AI_TIMEOUT_MS (${floor})`);
  return value;
}

/** The listener's own address; an unspecified one (0.0.0.0, ::) stands for the loopback. */
function defaultAppUrl(host: string, port: number): string {
  const h = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${isIP(h) === 6 ? `[${h}]` : h}:${port}`;
}

/**
 * Why the service is not plainly local (`NODE_ENV=production`, or HOST or APP_URL off the
 * loopback), or null when it is: not production, listening on a loopback address only, and
 * reached through a loopback URL.
 */
export function notLocalBecause(e: Pick<Env, 'NODE_ENV' | 'HOST'>, appUrl: string): string | null {
  if (e.NODE_ENV === 'production') return 'NODE_ENV=production';
  if (!isLoopbackHost(e.HOST)) return `HOST ${e.HOST}`;
  if (!isLoopbackHost(new URL(appUrl).hostname)) return `APP_URL ${appUrl}`;
  return null;
}

/** localhost, 127.0.0.0/8, ::1 and ::ffff:127.x.y.z, in any spelling. Never 0.0.0.0 or ::. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  let h: string;
  try {
    // The WHATWG URL parser canonicalises addresses: 127.1 → 127.0.0.1, 0:0::1 → [::1].
    h = new URL(`http://${isIP(bare) === 6 ? `[${bare}]` : bare}/`).hostname.replace(/\.$/, '');
  } catch {
    return false;
  }
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(h);
}

/**
 * Secrets given are used. Missing ones are generated once and kept in DATA_DIR/secrets.json only
 * for a single process (SERVICE_ROLE=all) when unsafe defaults are allowed; otherwise (a split
 * role, or `notLocal` says why) the start stops naming what is missing.
 */
function resolveSecrets(e: Env, notLocal: string | null, dataDir: string): Secrets {
  const given = { JWT_SECRET: e.JWT_SECRET, COOKIE_SECRET: e.COOKIE_SECRET, ENCRYPTION_KEY: e.ENCRYPTION_KEY };
  const missing = (Object.keys(given) as (keyof Secrets)[]).filter((k) => !given[k]);
  if (missing.length === 0) return given as Secrets;
  // Split roles run as several processes, each maybe with a DATA_DIR of its own: generated secrets
  // would differ between them (a session or CSRF token refused by another api process, a gateway
  // token another worker cannot open on takeover), so they must be given, whatever else allows.
  if (e.SERVICE_ROLE !== 'all') {
    throw new ConfigError(`Invalid configuration: ${missing.join(', ')}: required with SERVICE_ROLE=${e.SERVICE_ROLE} (every api and worker process must share JWT_SECRET, COOKIE_SECRET and ENCRYPTION_KEY)`);
  }
  if (notLocal !== null) throw new ConfigError(`Invalid configuration: ${missing[0]}: required when the service is not local (${notLocal})`);
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) keepPrivate(file);
  const stored: Partial<Secrets> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const generated: Secrets = {
    JWT_SECRET: stored.JWT_SECRET ?? randomBytes(48).toString('base64url'),
    COOKIE_SECRET: stored.COOKIE_SECRET ?? randomBytes(48).toString('base64url'),
    ENCRYPTION_KEY: stored.ENCRYPTION_KEY ?? randomBytes(32).toString('base64'),
  };
  if (!existsSync(file) || missing.some((k) => !stored[k])) {
    // 0711: others may pass through (the embedded PostgreSQL's own user, to its folder), not list it
    mkdirSync(dataDir, { recursive: true, mode: 0o711 });
    writeFileSync(file, JSON.stringify(generated, null, 2), { mode: 0o600 });
    keepPrivate(file);
  }
  return { ...generated, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v)) } as Secrets;
}

/**
 * secrets.json is read and written by the service's user only (0600, whatever the umask or an
 * earlier copy left): agent hosts run under other uids when the service is root. A file owned by
 * another user is refused: whoever owns it chooses our secrets.
 */
function keepPrivate(file: string): void {
  const s = statSync(file);
  const me = process.getuid?.();
  if (me !== undefined && me !== 0 && s.uid !== me) throw new ConfigError(`Invalid configuration: DATA_DIR: ${file} belongs to uid ${s.uid}, not to this service's user (${me})`);
  if (me === 0 && s.uid !== 0) chownSync(file, 0, 0);
  if ((s.mode & 0o777) !== 0o600) chmodSync(file, 0o600);
}
