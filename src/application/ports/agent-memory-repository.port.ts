import type { MemoryEntries } from '../../domain/memory/memory-limits.js';
import type { UserId } from '../../domain/shared/ids.js';

/** One agent's stored memory. */
export interface AgentMemory {
  entries: Record<string, unknown>;
  /** The newest write of any key; null when the memory is empty. */
  lastUpdated: Date | null;
}

/** The acting user's agents' memory (user unit of work; RLS scopes every statement to them). */
export interface AgentMemoryRepository {
  read(agentId: string): Promise<AgentMemory>;
  /**
   * Serialises writes to one agent's memory until the unit of work ends, so the per-agent key cap
   * counts and inserts race-free across processes.
   */
  lockForWrite(agentId: string): Promise<void>;
  /** How many keys the agent keeps, and how many of `keys` it does not keep yet. */
  keyCounts(agentId: string, keys: readonly string[]): Promise<{ stored: number; absent: number }>;
  /** Inserts or replaces each entry, all with `at` as their time. */
  upsert(agentId: string, userId: UserId, entries: MemoryEntries, at: Date): Promise<void>;
}

/** The workers' side (system unit of work). */
export interface SystemAgentMemoryRepository {
  /** The agent's memory as key → value (what the runtime's prompt renders). */
  entriesOf(agentId: string): Promise<Record<string, unknown>>;
  /** Deletes the memory of every agent of the user; returns how many keys went. */
  clearAllOf(userId: UserId): Promise<number>;
}
