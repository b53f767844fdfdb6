// The stack's own limit for one authenticated row, as an independent harness measures it: plain
// `node` (no tsx), Fastify and pg, a pool of 10, one primary-key SELECT per request over a table of
// 200 users, the id in a header (x-user-id) the bench spreads across the 200 ids. No auth, no RLS,
// no transaction. The table is BENCH_BARE_TABLE, created and filled by bench/settings-auth.bench.ts.
import Fastify from 'fastify';
import pg from 'pg';

const table = process.env.BENCH_BARE_TABLE ?? 'bench_bare_users';
if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`bad table name ${table}`);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const text = `SELECT id, email, name, plan, credits FROM ${table} WHERE id = $1`;
const app = Fastify({ logger: false });
app.get('/api/settings', async (req, reply) => {
  const { rows } = await pool.query({ name: 'bare_row', text, values: [req.headers['x-user-id']] });
  if (!rows[0]) return reply.code(404).send({ error: 'not found' });
  return rows[0];
});
app.get('/health', async () => ({ ok: true }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGINT', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
