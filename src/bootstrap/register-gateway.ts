import type { DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import type * as SettlerAdapters from './settler-adapters.js';
import { AcceptX402Payment } from '../application/gateway/accept-x402-payment.use-case.js';
import { SettleTransferAuthorization } from '../application/gateway/settle-transfer-authorization.use-case.js';
import { AcceptMppEvmPayment } from '../application/gateway/accept-mpp-evm-payment.use-case.js';
import { DiscoverGatewayPrices } from '../application/gateway/discover-gateway-prices.use-case.js';
import { KECCAK256, type Keccak256 } from '../application/ports/keccak256.port.js';
import { AcceptMppPayment } from '../application/gateway/accept-mpp-payment.use-case.js';
import { ChooseProcessorPayer } from '../application/gateway/choose-processor-payer.use-case.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../application/ports/gateway-settings.port.js';
import { IssuePaymentChallenge } from '../application/gateway/issue-payment-challenge.use-case.js';
import { ChainCheckedMppAvailability } from '../application/gateway/mpp-availability.js';
import { MPP_AVAILABILITY } from '../application/ports/mpp-availability.port.js';
import { PurgeExpiredChallenges } from '../application/gateway/purge-expired-challenges.use-case.js';
import { RunGatewayCall } from '../application/gateway/run-gateway-call.use-case.js';
import { CallGatewayPlugin } from '../application/gateway/call-gateway-plugin.use-case.js';
import { DEFAULT_AGENT_STEPS } from '../application/gateway/plugins/agent-task.js';
import { MPP_PAYMENT_VERIFIER, type MppPaymentVerifier } from '../application/ports/mpp-payment-verifier.port.js';
import { MPP_PAYER_SIGNATURES, type PersonalSignVerifier } from '../application/ports/personal-sign-verifier.port.js';
import { toBaseUnits } from '../domain/gateway/mpp.js';
import { ConfigError, type Config } from './config.js';
import { lazyAdapter } from './lazy-adapter.js';

/** Whether MPP is configured: its node, token and recipient. */
const mppConfigured = (config: Config): boolean => Boolean(config.MPP_RPC_URL && config.MPP_TOKEN_ADDRESS && config.MPP_RECIPIENT);
/** Whether MPP's EIP-3009 authorizations (x402, MPP evm) can be settled: MPP and a settler account. */
export const settlerConfigured = (config: Config): boolean => mppConfigured(config) && Boolean(config.MPP_SETTLER_PRIVATE_KEY);

/** KECCAK256 where no settler is configured: MPP's evm authorizations are not offered, so nothing hashes. */
const noKeccak256: Keccak256 = {
  ofText: () => {
    throw new Error('keccak-256 is loaded with the MPP settler (MPP_SETTLER_PRIVATE_KEY), which is not configured');
  },
};

/**
 * The gateway's payments: settings, and MPP when MPP_RPC_URL, MPP_TOKEN_ADDRESS and MPP_RECIPIENT
 * are set. The chain id is asked in the background: a silent or wrong RPC never delays or stops the
 * start. The plugins (GATEWAY_PLUGINS, register-gateway-plugins.ts) and the one-call grants
 * (ONE_CALL_GRANTS, register-billing.ts) are registered by their own areas. The chain adapters
 * (viem) load on first use (docs/decisions/0470), but the settler's and keccak-256 (both
 * synchronous in part), loaded by buildContainer when MPP and MPP_SETTLER_PRIVATE_KEY are set.
 */
export function registerGateway(c: DependencyContainer, config: Config, logger: Logger, settler?: typeof SettlerAdapters): void {
  const prices = { 'generate-text': config.MPP_PRICE_GENERATE_TEXT, agent: config.MPP_PRICE_AGENT, tts: config.MPP_PRICE_TTS, stt: config.MPP_PRICE_STT };
  const configured = mppConfigured(config);
  if (configured) {
    for (const [plugin, price] of Object.entries(prices)) {
      try {
        if (toBaseUnits(price, config.MPP_TOKEN_DECIMALS) <= 0n) throw new RangeError('must be above zero');
      } catch (err) {
        throw new ConfigError(`Invalid configuration: MPP_PRICE_${plugin.toUpperCase().replace('-', '_')}: ${(err as Error).message}`);
      }
    }
  }
  const settings: GatewaySettings = {
    appUrl: config.APP_URL,
    rateLimitPerMinute: config.RATE_LIMIT_GATEWAY,
    prices,
    prepaid: { maxTokens: config.GATEWAY_PREPAID_MAX_TOKENS, maxInputChars: config.GATEWAY_PREPAID_MAX_INPUT_CHARS, maxAgentSteps: DEFAULT_AGENT_STEPS, maxAudioSeconds: config.GATEWAY_PREPAID_MAX_AUDIO_SECONDS },
    mpp: configured
      ? {
          chainId: config.MPP_CHAIN_ID,
          token: config.MPP_TOKEN_ADDRESS as `0x${string}`,
          recipient: config.MPP_RECIPIENT as `0x${string}`,
          decimals: config.MPP_TOKEN_DECIMALS,
          confirmations: config.MPP_CONFIRMATIONS,
          settleTimeoutMs: config.MPP_SETTLE_TIMEOUT_MS,
        }
      : null,
  };
  c.register(GATEWAY_SETTINGS, { useValue: settings });
  const verifier = configured
    ? lazyAdapter<MppPaymentVerifier, 'verify' | 'chainId'>(
        async () => new (await import('../adapters/outbound/chain/viem-mpp-payment-verifier.js')).ViemMppPaymentVerifier(config.MPP_RPC_URL!, config.MPP_RPC_TIMEOUT_MS),
        ['verify', 'chainId'],
        {},
      )
    : null;
  if (verifier) c.register(MPP_PAYMENT_VERIFIER, { useValue: verifier });
  // the payer's signature of the nonce, on the MPP chain itself (an ERC-1271/6492 wallet lives there)
  const node = configured ? { url: config.MPP_RPC_URL!, timeoutMs: config.MPP_RPC_TIMEOUT_MS } : null;
  const payerSignatures = lazyAdapter<PersonalSignVerifier, 'isSignedBy'>(
    async () => new (await import('../adapters/outbound/chain/viem-personal-sign-verifier.js')).ViemPersonalSignVerifier(node, 'MPP RPC', 'MPP payments (MPP_RPC_URL)'),
    ['isSignedBy'],
    {},
  );
  c.register(MPP_PAYER_SIGNATURES, { useValue: payerSignatures });
  // EIP-3009 payments (x402, MPP's evm authorizations) need an account to settle them from
  if (settlerConfigured(config) && !settler) throw new Error('registerGateway: the MPP settler is configured but its adapters were not loaded (see buildContainer)');
  const authorizations =
    settlerConfigured(config) && settler
      ? new settler.ViemTransferAuthorizationChain(
          { url: config.MPP_RPC_URL!, timeoutMs: config.MPP_RPC_TIMEOUT_MS, chainId: config.MPP_CHAIN_ID },
          config.MPP_SETTLER_PRIVATE_KEY!,
          BigInt(config.MPP_SETTLER_MAX_GAS),
        )
      : null;
  // only MPP's evm authorizations hash (AcceptMppEvmPayment binds the nonce), and they are offered
  // only with a settler; without one no call reaches it
  c.register(KECCAK256, { useValue: settler?.viemKeccak256 ?? noKeccak256 });
  const availability = new ChainCheckedMppAvailability(settings, logger, verifier, authorizations);
  c.register(MPP_AVAILABILITY, { useValue: availability });
  void availability.check();
  for (const singleton of [IssuePaymentChallenge, AcceptMppPayment, SettleTransferAuthorization, AcceptX402Payment, AcceptMppEvmPayment, DiscoverGatewayPrices, ChooseProcessorPayer, RunGatewayCall, CallGatewayPlugin, PurgeExpiredChallenges]) c.registerSingleton(singleton as never);
}
