import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { up as createHotReadFunctions } from '../migrations/2026_11_24_0007_hot_read_functions.js';
import { HOT_READS } from '../src/adapters/outbound/persistence/hot-reads.js';
import { benchDatabase, median } from './support.js';

/**
 * PostgreSQL alone, no Node in the loop: pgbench runs each form of a hot read (CONTRACT.md
 * section 3) against one user's rows, in interleaved rounds, and prints median tps per form.
 * `npx tsx bench/hot-read-forms.ts` (needs pgbench and BENCH_DATABASE_URL / TEST_DATABASE_URL);
 * BENCH_FORMS=`profile bare,profile function` picks forms by name prefix.
 *
 * - row bare: the harness's baseline statement (five columns of a 200-row table by primary key).
 * - bare: the read alone, prepared, as the owner (no RLS, no transaction): the ceiling.
 * - as called: the statement the service sends (the read inside its text columns), as the owner,
 *   and pipelined after the identity as app_user (exactly the service's round trip).
 * - simple: BEGIN READ ONLY; set_config; the read; COMMIT as one simple-query message, planned each time.
 * - execute: the same message running EXECUTE of a statement prepared once per connection.
 * - pipelined: what the service runs: the identity statement and the read, prepared, in one
 *   pipeline ending in one Sync (one implicit transaction), as app_user.
 * - function: the earlier form, one prepared call of a SECURITY INVOKER PL/pgSQL function that sets
 *   the identity first (created here from its migration), as app_user (unnamed: parsed on every
 *   call), and variants without its search_path pin or its identity guard.
 */
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const clients = Number(process.env.BENCH_CLIENTS ?? 10);

const db = await benchDatabase();
try {
  const owner = new pg.Client({ connectionString: db.url });
  await owner.connect();
  const { rows } = await owner.query(
    `INSERT INTO users (email, name, referral_code) VALUES ('forms@example.test', 'Forms', 'RFORMS') RETURNING id`,
  );
  const uid = rows[0].id as string;
  // the harness's baseline statement (bench/bare-baseline.mjs): a five-column primary-key read, no RLS
  await owner.query(`CREATE TABLE bench_bare_users (id uuid PRIMARY KEY, email text NOT NULL, name text, plan text NOT NULL, credits bigint NOT NULL);
    INSERT INTO bench_bare_users SELECT gen_random_uuid(), 'bare-' || n || '@example.test', 'Bare ' || n, 'free', 1000 FROM generate_series(1, 200) n; ANALYZE bench_bare_users`);
  const rowId = (await owner.query('SELECT id FROM bench_bare_users LIMIT 1')).rows[0].id as string;
  await owner.query(
    `INSERT INTO subscriptions (processor_subscription_id, user_id, kind, catalog, plan, status, last_event_at) VALUES
       ('sub_a', $1, 'subscription', 'checkout', 'solo', 'active', now()),
       ('sub_b', $1, 'subscription', 'billing', 'pro', 'canceled', now());
     INSERT INTO byok_keys (user_id, provider, key_id, ciphertext) VALUES ($1, 'openai', 'k1', '\\x00')`.replace(/\$1/g, `'${uid}'`),
  );
  // The earlier function form, and variants of it to price each of its safeguards.
  const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: db.url, max: 1 }) }) });
  await createHotReadFunctions(kysely);
  await kysely.destroy();
  const fnText = async (name: string) =>
    (await owner.query(`SELECT pg_get_functiondef('${name}(uuid)'::regprocedure) AS d`)).rows[0].d as string;
  const profileDef = await fnText('hot_profile');
  await owner.query(profileDef.replace(/public\.hot_profile\(/, 'public.hot_profile_noset(').replace(/\n\s*SET search_path TO [^\n]*\n/, '\n'));
  await owner.query(profileDef.replace(/public\.hot_profile\(/, 'public.hot_profile_noguard(').replace(/IF coalesce[\s\S]*?END IF;/, ''));
  await owner.query('GRANT EXECUTE ON FUNCTION hot_profile_noset(uuid), hot_profile_noguard(uuid) TO app_user');
  await owner.end();

  const dir = mkdtempSync(join(tmpdir(), 'hot-read-forms-'));
  const literal = (sql: string) => sql.replace(/\$1/g, `'${uid}'`).replace(/\s+/g, ' ');
  const once = (sql: string) => `BEGIN READ ONLY\\; SELECT set_config('app.user_id', '${uid}', true)\\; ${literal(sql)}\\; COMMIT;\n`;
  const execute = (name: string, sql: string) =>
    `\\if :prepared = 0\nPREPARE ${name}(uuid) AS ${sql.replace(/\s+/g, ' ')};\n\\set prepared 1\n\\endif\n` +
    `BEGIN READ ONLY\\; SELECT set_config('app.user_id', '${uid}', true)\\; EXECUTE ${name}('${uid}')\\; COMMIT;\n`;
  const pipelined = (sql: string) =>
    `\\startpipeline\nSELECT set_config('app.user_id', :uid, true);\n${sql.replace(/\$1/g, ':uid').replace(/\s+/g, ' ')};\n\\endpipeline\n`;
  type Form = { script: string; mode: 'simple' | 'extended' | 'prepared'; role: 'owner' | 'app_user' };
  // what the service's call adds to the read's own SQL: its text columns (epoch times, the joined array)
  const hotText = `SELECT ${HOT_READS.profile.columns} FROM (${HOT_READS.profile.sql}) AS hot`;
  const forms: Record<string, Form> = {
    'row bare': { script: `SELECT id, email, name, plan, credits FROM bench_bare_users WHERE id = '${rowId}';\n`, mode: 'prepared', role: 'owner' },
    'profile as called, owner': { script: `${literal(hotText)};\n`, mode: 'prepared', role: 'owner' },
    'profile as called, pipelined': { script: pipelined(hotText), mode: 'prepared', role: 'app_user' },
    'profile bare': { script: `${HOT_READS.profile.sql.replace(/\$1/g, ':uid').replace(/\s+/g, ' ')};\n`, mode: 'prepared', role: 'owner' },
    'profile simple': { script: once(HOT_READS.profile.sql), mode: 'simple', role: 'app_user' },
    'profile execute': { script: execute('hot_profile_p', HOT_READS.profile.sql), mode: 'simple', role: 'app_user' },
    'profile pipelined': { script: pipelined(HOT_READS.profile.sql), mode: 'prepared', role: 'app_user' },
    'profile function': { script: 'SELECT * FROM hot_profile(:uid);\n', mode: 'prepared', role: 'app_user' },
    'profile function, unnamed': { script: 'SELECT * FROM hot_profile(:uid);\n', mode: 'extended', role: 'app_user' },
    'profile fn, no SET clause': { script: 'SELECT * FROM hot_profile_noset(:uid);\n', mode: 'prepared', role: 'app_user' },
    'profile fn, no guard': { script: 'SELECT * FROM hot_profile_noguard(:uid);\n', mode: 'prepared', role: 'app_user' },
    'chatAccess bare': { script: `${HOT_READS.chatAccess.sql.replace(/\$1/g, ':uid').replace(/\s+/g, ' ')};\n`, mode: 'prepared', role: 'owner' },
    'chatAccess simple': { script: once(HOT_READS.chatAccess.sql), mode: 'simple', role: 'app_user' },
    'chatAccess execute': { script: execute('hot_chat_p', HOT_READS.chatAccess.sql), mode: 'simple', role: 'app_user' },
    'chatAccess pipelined': { script: pipelined(HOT_READS.chatAccess.sql), mode: 'prepared', role: 'app_user' },
    'chatAccess function': { script: 'SELECT * FROM hot_chat_access(:uid);\n', mode: 'prepared', role: 'app_user' },
  };
  const url = new URL(db.url);
  const run = (name: string, f: Form): number => {
    const file = join(dir, `${name.replace(/\W+/g, '_')}.sql`);
    writeFileSync(file, f.script);
    const out = execFileSync(
      'pgbench',
      ['-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username), '-n', '-c', String(clients), '-j', '2',
        '-T', String(seconds), '-M', f.mode, '-D', `uid=${uid}`, '-D', 'prepared=0', '-f', file, url.pathname.slice(1)],
      { env: { ...process.env, PGOPTIONS: f.role === 'app_user' ? '-c role=app_user' : '', PGPASSWORD: decodeURIComponent(url.password) }, encoding: 'utf8' },
    );
    const failed = /number of failed transactions: (\d+)/.exec(out)?.[1];
    if (failed && failed !== '0') throw new Error(`${name}: ${failed} failed transactions`);
    return Number(/tps = ([\d.]+)/.exec(out)![1]);
  };
  const only = process.env.BENCH_FORMS?.split(',');
  const chosen = Object.entries(forms).filter(([name]) => !only || only.some((o) => name.startsWith(o)));
  const tps: Record<string, number[]> = Object.fromEntries(chosen.map(([k]) => [k, []]));
  for (let r = 0; r < rounds; r++) for (const [name, f] of chosen) tps[name]!.push(run(name, f));
  console.log(`\npgbench, ${clients} clients, ${rounds} interleaved rounds of ${seconds}s (median tps, each round in brackets)`);
  for (const [name, xs] of Object.entries(tps)) console.log(`${name.padEnd(28)} ${median(xs).toFixed(0).padStart(7)}   [${xs.map((x) => x.toFixed(0)).join(', ')}]`);
} finally {
  await db.drop();
}
