import type { HotReads } from '../../../application/ports/unit-of-work.port.js';
import { toUser, USER_COLUMNS } from './kysely/user-row.js';

/**
 * The fixed SQL of each one-message read. `sql` receives only an already validated uuid; no other
 * value is ever pasted. Rows come back through the same mappers the repositories use.
 */
export const HOT_READS: { [K in keyof HotReads]: { sql: (userId: string) => string; map: (rows: any[]) => HotReads[K] } } = {
  profile: {
    sql: (userId) => `SELECT ${USER_COLUMNS.join(', ')} FROM users WHERE id = '${userId}'`,
    map: (rows) => (rows[0] ? toUser(rows[0]) : null),
  },
};
