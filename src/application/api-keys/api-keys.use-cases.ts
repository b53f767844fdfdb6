import { inject, injectable } from 'tsyringe';
import { NotFoundError } from '../errors.js';
import type { Actor } from '../auth/actor.js';
import { newApiKey } from '../auth/api-key-format.js';
import { CredentialRevocations } from '../auth/credential-revocations.js';
import type { ApiKeyRecord } from '../ports/api-key-repository.port.js';
import { SECRET_HASHER, type SecretHasher } from '../ports/password-hasher.port.js';
import { UNIT_OF_WORK, type UnitOfWork } from '../ports/unit-of-work.port.js';

/** Creates a key; the full key is in this result and nowhere else, ever. */
@injectable()
export class CreateApiKey {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @inject(SECRET_HASHER) private readonly hasher: SecretHasher,
  ) {}

  async execute(actor: Actor, input: { name: string }): Promise<ApiKeyRecord & { key: string }> {
    const { key, lookupId, preview } = newApiKey();
    const keyHash = await this.hasher.hash(key);
    const record = await this.uow.asUser(actor.userId, (s) => s.apiKeys.insert({ name: input.name, lookupId, keyHash, preview }));
    return { ...record, key };
  }
}

@injectable()
export class ListApiKeys {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UnitOfWork) {}

  execute(actor: Actor): Promise<ApiKeyRecord[]> {
    return this.uow.asUser(actor.userId, (s) => s.apiKeys.list());
  }
}

@injectable()
export class GetApiKey {
  constructor(@inject(UNIT_OF_WORK) private readonly uow: UnitOfWork) {}

  async execute(actor: Actor, id: string): Promise<ApiKeyRecord> {
    const key = await this.uow.asUser(actor.userId, (s) => s.apiKeys.get(id));
    if (!key) throw new NotFoundError('API key');
    return key;
  }
}

/** Deletes a key; it stops working at once here and within 10 s in other processes. */
@injectable()
export class DeleteApiKey {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @inject(CredentialRevocations) private readonly revocations: CredentialRevocations,
  ) {}

  async execute(actor: Actor, id: string): Promise<void> {
    const deleted = await this.uow.asUser(actor.userId, (s) => s.apiKeys.delete(id));
    if (!deleted) throw new NotFoundError('API key');
    await this.revocations.keysDeleted([id]);
  }
}
