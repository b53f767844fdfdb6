import type { AgentMemory } from '../../../../application/ports/agent-memory-repository.port.js';
import type { SavedMemory } from '../../../../application/memory/save-agent-memory.use-case.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** GET /api/memory (spec "Agent memory"): `lastUpdated` null while the memory is empty. */
export const memoryBody = (agentId: string, m: AgentMemory) => ({
  memory: m.entries,
  agentId,
  count: Object.keys(m.entries).length,
  lastUpdated: iso(m.lastUpdated),
});

/** POST /api/memory: `saved` is the write's time (docs/decisions/0088-agent-memory-limits.md). */
export const savedMemoryBody = (agentId: string, single: boolean, s: SavedMemory) =>
  single ? { success: true, agentId, key: s.keys[0], saved: s.saved.toISOString() } : { success: true, agentId, keysUpdated: s.keys.length, saved: s.saved.toISOString() };
