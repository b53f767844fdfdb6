import type { OneCallGrants } from '../../../src/application/ports/one-call-grants.port.js';
import type { GatewayPluginId } from '../../../src/domain/gateway/gateway-plugin-id.js';
import type { UserId } from '../../../src/domain/shared/ids.js';

/**
 * One-call grants held in memory, standing in for the processor checkout's adapter (another
 * branch) so the gateway's use of the port can be tested: `grant` is what a completed checkout does.
 */
export class InMemoryOneCallGrants implements OneCallGrants {
  private next = 0;
  readonly unused = new Map<string, { userId: UserId; plugin: GatewayPluginId }>();
  readonly taken = new Map<string, { userId: UserId; plugin: GatewayPluginId }>();

  grant(userId: string, plugin: GatewayPluginId): string {
    const id = `grant-${++this.next}`;
    this.unused.set(id, { userId: userId as UserId, plugin });
    return id;
  }

  async consume(userId: UserId, plugin: GatewayPluginId): Promise<{ grantId: string } | null> {
    for (const [id, g] of this.unused) {
      if (g.userId === userId && g.plugin === plugin) {
        this.unused.delete(id);
        this.taken.set(id, g);
        return { grantId: id };
      }
    }
    return null;
  }

  async restore(grantId: string): Promise<void> {
    const g = this.taken.get(grantId);
    if (!g) return;
    this.taken.delete(grantId);
    this.unused.set(grantId, g);
  }
}
