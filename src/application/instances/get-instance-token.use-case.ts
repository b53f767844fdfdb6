import { inject, injectable } from 'tsyringe';
import type { Actor } from '../auth/actor.js';
import { gatewayTokenContext } from '../agents/gateway-token.js';
import { NotFoundError } from '../errors.js';
import { SECRET_BOX, type SecretBox } from '../ports/secret-box.port.js';
import { UNIT_OF_WORK, type SystemWork, type UserWork } from '../ports/unit-of-work.port.js';
import type { AgentsSystemScope, AgentsUserScope } from '../ports/scopes/agents-scope.port.js';
import { ownedInstance } from './instance-access.js';

/**
 * The instance's gateway token, opened from its sealed copy: made once with the instance (the
 * provision job) and the same on every call until repair rotates it. The user role cannot read
 * the token's columns, so the read goes through the system unit of work once ownership is checked.
 */
@injectable()
export class GetInstanceToken {
  constructor(
    @inject(UNIT_OF_WORK) private readonly uow: UserWork<AgentsUserScope, 'instances'> & SystemWork<AgentsSystemScope, 'instances'>,
    @inject(SECRET_BOX) private readonly secrets: SecretBox,
  ) {}

  async execute(actor: Actor, userId: string): Promise<string> {
    const owned = await ownedInstance(this.uow, actor, userId);
    const row = await this.uow.asSystem((s) => s.instances.lock(owned.userId));
    if (!row) throw new NotFoundError('Instance');
    return this.secrets.open(row.gatewayToken, gatewayTokenContext(owned.userId));
  }
}
