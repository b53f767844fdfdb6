import { inject, injectable } from 'tsyringe';
import { attestationFacts, judgeAttestation, ZERO_ADDRESS } from '../../domain/verification/attestation.js';
import { parseVerificationClaim, type VerificationClaim, type VerificationInput } from '../../domain/verification/verification-claim.js';
import { verificationMessage, verifiedRecord, type VerificationRecord } from '../../domain/verification/verification.js';
import { AGENT_SETTINGS, type AgentSettings } from '../ports/agent-settings.port.js';
import type { Actor } from '../auth/actor.js';
import { NotFoundError } from '../errors.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsUserScope } from '../ports/scopes/agents-scope.port.js';
import { VERIFICATION_CHECKS, type VerificationChecks } from '../ports/verification-checks.port.js';
import { VerificationFailedError } from './verification.errors.js';

type Proof = Pick<VerificationRecord, 'attestationUid' | 'verifierAddress'> & { metadata: Record<string, unknown> };

const ATTESTATION_REFUSALS = {
  unknown: 'No attestation with this uid exists on chain',
  revoked: 'The attestation was revoked',
  expired: 'The attestation has expired',
  recipient_mismatch: "The attestation's recipient is not walletAddress",
} as const;

/**
 * POST /api/agents/:id/verify: checks the proof, then records it as the agent's current
 * verification. Checks run outside any transaction (they may call an RPC node); a proof that
 * fails, or an RPC node that does not answer, records nothing.
 */
@injectable()
export class VerifyAgent {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'agents' | 'agentVerifications'>,
    @inject(VERIFICATION_CHECKS) private readonly checks: VerificationChecks,
    @inject(AGENT_SETTINGS) private readonly settings: AgentSettings,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, agentId: string, input: VerificationInput): Promise<VerificationRecord> {
    const claim = parseVerificationClaim(input);
    const exists = await this.uow.asUser(actor.userId, async (s) => (await s.agents.get(agentId)) !== null);
    if (!exists) throw new NotFoundError('Agent');
    const proof = claim.verificationType === 'eas' ? await this.attestation(claim) : await this.signature(claim, verificationMessage(agentId, this.settings.appUrl));
    const record = verifiedRecord({ verificationType: claim.verificationType, ...proof, at: this.clock.now() });
    // the agent may have been deleted while the proof was checked: then it is gone, 404
    const saved = await this.uow.asUser(actor.userId, (s) => s.agentVerifications.save(agentId, record));
    if (!saved) throw new NotFoundError('Agent');
    return record;
  }

  /** CONTRACT.md section 7 "`eas` verification": read on chain when a reader is configured, else accepted on format. */
  private async attestation(claim: Extract<VerificationClaim, { verificationType: 'eas' }>): Promise<Proof> {
    const reader = this.checks.attestations;
    if (!reader) return { attestationUid: claim.attestationUid, verifierAddress: claim.walletAddress, metadata: { onchainChecked: false } };
    const a = await reader.read(claim.attestationUid);
    const verdict = judgeAttestation(a, { uid: claim.attestationUid, walletAddress: claim.walletAddress, now: this.clock.now() });
    if (!verdict.ok) throw new VerificationFailedError(ATTESTATION_REFUSALS[verdict.reason], verdict.reason);
    const recipient = a.recipient.toLowerCase();
    return {
      attestationUid: claim.attestationUid,
      verifierAddress: claim.walletAddress ?? (recipient === ZERO_ADDRESS ? null : recipient),
      metadata: { onchainChecked: true, easContract: reader.contract, ...attestationFacts(a) },
    };
  }

  /** CONTRACT.md section 7 "wallet-signature verification": an EIP-191 signature of the message by the wallet. */
  private async signature(claim: Exclude<VerificationClaim, { verificationType: 'eas' }>, message: string): Promise<Proof> {
    const signer = await this.checks.signatures.signerOf({ message, signature: claim.signature, claimed: claim.walletAddress });
    if (signer === null) {
      throw new VerificationFailedError(claim.walletAddress ? 'The signature is not walletAddress\'s signature of the verification message' : 'The signature recovers to no address', 'signature_mismatch');
    }
    const metadata: Record<string, unknown> = { message };
    if (claim.verificationType === 'ens') {
      metadata.ensName = claim.ensName;
      const resolver = this.checks.ens;
      if (resolver) {
        const resolved = await resolver.resolve(claim.ensName);
        if (resolved !== signer) throw new VerificationFailedError(`${claim.ensName} does not resolve to the signing wallet`, 'ens_mismatch');
        metadata.ensChecked = true;
      } else {
        metadata.ensChecked = false;
      }
    }
    return { attestationUid: null, verifierAddress: signer, metadata };
  }
}
