import type { Instance } from '../../domain/agents/instance.js';
import type { AgentStatus } from '../../domain/agents/agent-status.js';
import type { ChatSubscription } from '../../domain/ai/chat-access.js';
import type { UserId } from '../../domain/shared/ids.js';
import type { SealedSecret } from './secret-box.port.js';

/** The acting user's instance (user unit of work; the gateway token's columns are not readable). */
export interface InstanceRepository {
  get(): Promise<Instance | null>;
  /** Inserts the user's instance; false, changing nothing, when they already have one. */
  insertIfMissing(instance: NewInstance): Promise<boolean>;
}

export interface NewInstance extends Instance {
  gatewayToken: { sealed: SealedSecret; hash: Buffer };
  /** The plan's RAM, GB: the cap a worker taking the instance over starts it with. */
  ramGb: number;
}

/** Instances across users (system unit of work). */
export interface SystemInstanceRepository {
  /** The instance and its sealed gateway token, locked until the unit of work ends. */
  lock(userId: UserId): Promise<(Instance & { gatewayToken: SealedSecret; ramGb: number }) | null>;
  /** Replaces the gateway token (repair): the old one stops authenticating when this commits. */
  rotateGatewayToken(userId: UserId, token: { sealed: SealedSecret; hash: Buffer }): Promise<void>;
  /** Records the plan's RAM at a later provisioning (a plan change takes effect at the next start). */
  setRamGb(userId: UserId, ramGb: number): Promise<void>;
  /** Inserts; false, changing nothing, when the user already has one (a concurrent job made it). */
  insert(instance: NewInstance): Promise<boolean>;
  setState(userId: UserId, state: { status: AgentStatus; startedAt: Date | null }): Promise<void>;
  /** The user whose instance's gateway token has this sha256 (a unique index: one lookup, no timing leak), else null. */
  ownerOfToken(tokenHash: Buffer): Promise<UserId | null>;
  /**
   * An agent runtime's AI call, in one statement: the owner of the gateway token with this sha256
   * (as ownerOfToken), whether `agentId` is one of their agents, and what decides their grant;
   * null for an unknown token.
   */
  runtimeCaller(tokenHash: Buffer, agentId: string): Promise<RuntimeCaller | null>;
}

/** Who makes an agent runtime's call, as POST /api/runtime/chat needs to know them. */
export interface RuntimeCaller {
  readonly userId: UserId;
  /** The agent named by the call is this user's. */
  readonly ownsAgent: boolean;
  readonly email: string;
  readonly emailVerified: boolean;
  /** Every subscription of the user, whatever its status. */
  readonly subscriptions: readonly ChatSubscription[];
  /** Providers the user keeps a BYOK key for (never the keys). */
  readonly byokProviders: readonly string[];
}
