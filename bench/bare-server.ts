import Fastify from 'fastify';
import pg from 'pg';

/**
 * The baseline: the same SELECT as GET /api/settings, on the same PostgreSQL, with no auth,
 * no RLS and no transaction. What the real endpoint costs on top of this is the overhead measured.
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const userId = process.env.BENCH_USER_ID!;
const app = Fastify({ logger: false });
app.get('/api/settings', async () => {
  const { rows } = await pool.query(
    'SELECT id, email, name, email_verified_at, credits, referral_code, notifications, two_factor_enabled, created_at, updated_at FROM users WHERE id = $1',
    [userId],
  );
  const u = rows[0];
  return { id: u.id, email: u.email, name: u.name, plan: 'free', credits: u.credits, twoFactorEnabled: u.two_factor_enabled, referralCode: u.referral_code, emailVerified: u.email_verified_at !== null, notifications: u.notifications };
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGINT', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
