import type { DependencyContainer } from 'tsyringe';
import { JoseSocialIdentityVerifier, SOCIAL_TOKEN_ALGORITHMS } from '../adapters/outbound/identity/jose-social-identity-verifier.js';
import { UngatedTokenGate } from '../adapters/outbound/identity/ungated-token-gate.js';
import { UnconfiguredSocialIdentity } from '../adapters/outbound/identity/unconfigured-social-identity.js';
import { RefreshSocialSession } from '../application/identity/refresh-social-session.use-case.js';
import { ChainTokenGate } from '../application/identity/chain-token-gate.js';
import { CheckTokenGate } from '../application/identity/check-token-gate.use-case.js';
import { VerifySocialIdentity } from '../application/identity/verify-social-identity.use-case.js';
import { SOCIAL_IDENTITY_SETTINGS } from '../application/ports/social-identity-settings.port.js';
import { SOCIAL_IDENTITY_VERIFIER } from '../application/ports/social-identity-verifier.port.js';
import { TOKEN_GATE } from '../application/ports/token-gate.port.js';
import type { Config } from './config.js';

/**
 * Social identity sign-in: the verifier exists only when all three SOCIAL_* settings are set
 * (else 503). With TOKEN_GATE_ADDRESS set the gate is the on-chain token-gating check (resolved
 * at call time, so registration order does not matter); unset, nothing is gated. Needs
 * registerAccounts first.
 */
export function registerSocialIdentity(c: DependencyContainer, config: Config): void {
  const { SOCIAL_JWKS_URL: jwksUrl, SOCIAL_ISSUER: issuer, SOCIAL_AUDIENCE: audience } = config;
  const configured = Boolean(jwksUrl && issuer && audience);
  c.register(SOCIAL_IDENTITY_VERIFIER, {
    useValue: configured ? new JoseSocialIdentityVerifier({ jwksUrl: jwksUrl!, issuer: issuer!, audience: audience! }) : new UnconfiguredSocialIdentity(),
  });
  c.register(SOCIAL_IDENTITY_SETTINGS, {
    useValue: { configured, issuer: configured ? issuer! : null, audience: configured ? audience! : null, algorithms: SOCIAL_TOKEN_ALGORITHMS },
  });
  c.register(TOKEN_GATE, { useValue: config.TOKEN_GATE_ADDRESS ? new ChainTokenGate(() => c.resolve(CheckTokenGate)) : new UngatedTokenGate() });
  for (const useCase of [VerifySocialIdentity, RefreshSocialSession]) c.registerSingleton(useCase as never);
}
