import 'reflect-metadata';
import { container as root, type DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import { AllowAllBotDetector } from '../adapters/outbound/bot-detection/allow-all-bot-detector.js';
import { TurnstileBotDetector } from '../adapters/outbound/bot-detection/turnstile-bot-detector.js';
import { OutboxMailer } from '../adapters/outbound/persistence/outbox-mailer.js';
import { PgDatabasePing } from '../adapters/outbound/persistence/pg-database-ping.js';
import { PgUnitOfWork } from '../adapters/outbound/persistence/pg-unit-of-work.js';
import { RouteTimings } from '../adapters/inbound/http/plugins/route-timings.js';
import { NodeCryptoIdGenerator } from '../adapters/outbound/crypto/node-crypto-id-generator.js';
import { OsSystemStats } from '../adapters/outbound/system/os-system-stats.js';
import { HEALTH_THRESHOLDS } from '../application/ports/health-thresholds.port.js';
import { GetHealth } from '../application/health/get-health.use-case.js';
import { BOT_DETECTOR } from '../application/ports/bot-detector.port.js';
import { CLOCK, systemClock } from '../application/ports/clock.port.js';
import { ID_GENERATOR } from '../application/ports/id-generator.port.js';
import { JOB_HANDLERS } from '../application/ports/job-queue.port.js';
import { LOGGER } from '../application/ports/logger.port.js';
import { MAILER } from '../application/ports/mailer.port.js';
import { DATABASE_PING } from '../application/ports/database-ping.port.js';
import { SYSTEM_STATS } from '../application/ports/system-stats.port.js';
import { UNIT_OF_WORK, type UnitOfWork } from '../application/ports/unit-of-work.port.js';
import type { Config } from './config.js';
import type { Infrastructure } from './infrastructure.js';
import { registerAccounts } from './register-accounts.js';
import { registerOAuth } from './register-oauth.js';
import { registerSkillState } from './register-skill-state.js';
import { registerAgents } from './register-agents.js';
import { registerInstances } from './register-instances.js';
import { registerBilling } from './register-billing.js';
import { registerAi } from './register-ai.js';
import { registerGatewayPlugins } from './register-gateway-plugins.js';
import { registerGateway, settlerConfigured } from './register-gateway.js';
import { registerSkills } from './register-skills.js';
import { registerSocialIdentity } from './register-social-identity.js';
import { registerVerification } from './register-verification.js';
import { registerWalletSignIn } from './register-wallet-sign-in.js';
import { registerWallets } from './register-wallets.js';
import { registerMetrics } from './register-metrics.js';
import { registerMcp } from './register-mcp.js';
import { registerWebhooks } from './register-webhooks.js';

/**
 * The composition root: the only place that picks adapters. Each area registers itself in its
 * own register-<area>.ts. A child container per process keeps tests' containers apart. Async only
 * to load what is needed just when configured (the Stripe SDK, nodemailer, the MPP settler's chain
 * adapters; the other chain and wallet adapters load on first use, docs/decisions/0470).
 */
export async function buildContainer(
  config: Config,
  logger: Logger,
  infra: Pick<Infrastructure, 'pools' | 'queue' | 'revocations' | 'mailboxSignals'>,
): Promise<DependencyContainer> {
  const stripeAdapters = config.STRIPE_SECRET_KEY || config.STRIPE_WEBHOOK_SECRET ? await import('./stripe-adapters.js') : undefined;
  const settler = settlerConfigured(config) ? await import('./settler-adapters.js') : undefined;
  const c = root.createChildContainer();
  c.register(LOGGER, { useValue: logger });
  c.register(CLOCK, { useValue: systemClock });
  c.register(ID_GENERATOR, { useValue: new NodeCryptoIdGenerator() });
  const uow: UnitOfWork = new PgUnitOfWork(infra.pools, (executor) => infra.queue.senderFor(executor));
  c.register(UNIT_OF_WORK, { useValue: uow });
  c.register(JOB_HANDLERS, { useValue: infra.queue });
  c.register(MAILER, {
    // nodemailer is loaded only when SMTP_URL is set.
    useValue: config.SMTP_URL
      ? new (await import('../adapters/outbound/mail/smtp-mailer.js')).SmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM })
      : new OutboxMailer(uow, logger, config.unsafeDefaults),
  });
  c.register(BOT_DETECTOR, {
    useValue: config.TURNSTILE_SECRET_KEY
      ? new TurnstileBotDetector({ secret: config.TURNSTILE_SECRET_KEY, baseUrl: config.TURNSTILE_BASE_URL })
      : new AllowAllBotDetector(),
  });
  c.register(SYSTEM_STATS, { useValue: new OsSystemStats() });
  c.register(DATABASE_PING, { useValue: new PgDatabasePing(infra.pools.system) });
  c.register(HEALTH_THRESHOLDS, { useValue: { degradedAbove: config.HEALTH_DEGRADED_PERCENT, unhealthyAbove: config.HEALTH_UNHEALTHY_PERCENT } });
  c.registerSingleton(GetHealth);
  c.registerSingleton(RouteTimings);
  // before the skills area resolves the skill handlers
  registerSkillState(c, config);
  registerAccounts(c, config, infra);
  registerSocialIdentity(c, config);
  registerOAuth(c, config);
  registerBilling(c, config, infra, stripeAdapters);
  registerAi(c, config);
  registerAgents(c, config, logger, infra);
  registerGatewayPlugins(c);
  registerVerification(c, config);
  registerWalletSignIn(c, config);
  registerInstances(c, config, infra);
  registerWallets(c, config);
  registerSkills(c);
  registerGateway(c, config, logger, settler);
  registerMetrics(c, config, infra);
  registerWebhooks(c, config);
  registerMcp(c, config);
  return c;
}
