import { inject, injectable } from 'tsyringe';
import { NO_KEY_LIMITS, type ApiKeyLimits } from '../../domain/accounts/api-key-limits.js';
import type { Actor } from '../auth/actor.js';
import { newApiKey } from '../auth/api-key-format.js';
import type { ApiKeyRecord } from '../ports/api-key-repository.port.js';
import { SECRET_HASHER, type SecretHasher } from '../ports/secret-hasher.port.js';
import { UNIT_OF_WORK, type UserWork } from '../ports/unit-of-work.port.js';
import type { AccountsUserScope } from '../ports/scopes/accounts-scope.port.js';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator.port.js';
import { CLOCK, type Clock } from '../ports/clock.port.js';
import { assertKeyLimitsValid } from './api-key-limits-input.js';

/** Creates a key, with the limits given (decision 0425); the full key is in this result and nowhere else, ever. */
@injectable()
export class CreateApiKey {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AccountsUserScope, 'apiKeys'>,
    @inject(SECRET_HASHER) private readonly hasher: SecretHasher,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { name: string } & Partial<ApiKeyLimits>): Promise<ApiKeyRecord & { key: string }> {
    const { name, ...given } = input;
    assertKeyLimitsValid(given, this.clock.now());
    const limits = { ...NO_KEY_LIMITS, ...given };
    const { key, lookupId, preview } = newApiKey(this.ids);
    const keyHash = await this.hasher.hash(key);
    const record = await this.uow.asUser(actor.userId, (s) => s.apiKeys.insert({ name, lookupId, keyHash, preview, limits }));
    return { ...record, key };
  }
}
