import { sql, type Kysely } from 'kysely';
import type { AgentVerificationRepository } from '../../../../application/ports/agent-verification-repository.port.js';
import { isUuid } from '../../../../domain/shared/ids.js';
import type { VerificationRecord, VerificationType } from '../../../../domain/verification/verification.js';
import type { Database } from './database.js';

/** The acting user's agents' verification records: RLS scopes every statement to them. */
export class KyselyAgentVerificationRepository implements AgentVerificationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(agentId: string): Promise<VerificationRecord | null> {
    if (!isUuid(agentId)) return null;
    const r = await this.db
      .selectFrom('agent_verifications')
      .select(['verification_type', 'attestation_uid', 'verifier_address', 'metadata', 'verified_at'])
      .where('agent_id', '=', agentId)
      .executeTakeFirst();
    if (!r) return null;
    return {
      verified: true,
      verificationType: r.verification_type as VerificationType,
      attestationUid: r.attestation_uid,
      verifierAddress: r.verifier_address,
      verifiedAt: r.verified_at,
      metadata: r.metadata,
    };
  }

  async save(agentId: string, record: VerificationRecord): Promise<boolean> {
    if (!isUuid(agentId) || !record.verified || record.verificationType === null || record.verifiedAt === null) return false;
    const values = {
      verification_type: record.verificationType,
      attestation_uid: record.attestationUid,
      verifier_address: record.verifierAddress,
      metadata: JSON.stringify(record.metadata ?? {}),
      verified_at: record.verifiedAt,
    };
    // the owner is the agent's own (read under RLS): no agent visible, no row
    const r = await this.db
      .insertInto('agent_verifications')
      .columns(['agent_id', 'user_id', 'verification_type', 'attestation_uid', 'verifier_address', 'metadata', 'verified_at'])
      .expression((eb) =>
        eb
          .selectFrom('agents')
          .select([
            'agents.id',
            'agents.user_id',
            eb.val(values.verification_type).as('verification_type'),
            eb.val(values.attestation_uid).as('attestation_uid'),
            eb.val(values.verifier_address).as('verifier_address'),
            sql<string>`${values.metadata}::jsonb`.as('metadata'),
            eb.val(values.verified_at).as('verified_at'),
          ])
          .where('agents.id', '=', agentId),
      )
      .onConflict((oc) =>
        oc.column('agent_id').doUpdateSet({
          verification_type: (eb) => eb.ref('excluded.verification_type'),
          attestation_uid: (eb) => eb.ref('excluded.attestation_uid'),
          verifier_address: (eb) => eb.ref('excluded.verifier_address'),
          metadata: (eb) => eb.ref('excluded.metadata'),
          verified_at: (eb) => eb.ref('excluded.verified_at'),
        }),
      )
      .executeTakeFirst();
    return (r.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  async clear(agentId: string): Promise<void> {
    if (!isUuid(agentId)) return;
    await this.db.deleteFrom('agent_verifications').where('agent_id', '=', agentId).execute();
  }
}
