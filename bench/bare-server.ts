import Fastify from 'fastify';
import pg from 'pg';
import { HOT_READS } from '../src/adapters/outbound/persistence/hot-reads.js';
import { queryPositional } from '../src/adapters/outbound/persistence/positional-query.js';

/**
 * The baseline: the very SELECT that GET /api/settings runs (the profile hot read's text, the
 * user's subscribed plans included), on the same PostgreSQL, with no auth, no RLS (it connects as
 * the owner) and no transaction, as a plain parameterised query. What the real endpoint costs on
 * top of this is the overhead measured.
 */
// The service's request pool size (DB_POOL_SIZE, default 10), so both sides hold as many connections.
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_SIZE ?? 10) });
const userId = process.env.BENCH_USER_ID!;
const { sql, columns, map } = HOT_READS.profile;
// the read's own SQL, its columns taken as the service's call takes them from the function
const text = `SELECT ${columns} FROM (${sql}) AS hot`;
const app = Fastify({ logger: false });
app.get('/api/settings', async () => {
  const client = await pool.connect();
  const u = map(await queryPositional(client, 'bare_profile', text, [userId]).finally(() => client.release()))!;
  return { id: u.id, email: u.email, name: u.name, plan: 'free', credits: u.credits, twoFactorEnabled: u.twoFactorEnabled, referralCode: u.referralCode, emailVerified: u.emailVerified, notifications: u.notifications };
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGINT', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
