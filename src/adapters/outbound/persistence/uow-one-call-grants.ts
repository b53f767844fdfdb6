import type { OneCallGrants } from '../../../application/ports/one-call-grants.port.js';
import type { UnitOfWork } from '../../../application/ports/unit-of-work.port.js';
import type { GatewayPluginId } from '../../../domain/gateway/gateway-plugin-id.js';
import type { UserId } from '../../../domain/shared/ids.js';

/**
 * The gateway's one-call grants over the grants table: taking one runs as the buyer (row-level
 * security hides every other user's grants), giving one back runs as the system, which alone may
 * move a grant back to paid. Each is its own short transaction, outside the plugin's call.
 */
export class UowOneCallGrants implements OneCallGrants {
  constructor(private readonly uow: Pick<UnitOfWork, 'asUser' | 'asSystem'>) {}

  async consume(userId: UserId, plugin: GatewayPluginId): Promise<{ grantId: string } | null> {
    const grantId = await this.uow.asUser(userId, (s) => s.oneCallGrants.takeOne(plugin));
    return grantId ? { grantId } : null;
  }

  async restore(grantId: string): Promise<void> {
    await this.uow.asSystem((s) => s.oneCallGrants.restore(grantId));
  }
}
