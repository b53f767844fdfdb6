/**
 * The Kysely table types, generated from the schema the migrations produce (kysely-codegen), never
 * written by hand. `npm run db:types` migrates a scratch database, writes the types to
 * DATABASE_TYPES_FILE and drops the scratch database; a test compares the committed file with a
 * fresh generation, so a migration without its types fails CI.
 *
 * The server: TEST_DATABASE_URL (a superuser's URL), else what the test suite would pick
 * (a container or the embedded PostgreSQL).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Kysely, PostgresDialect as KyselyPostgresDialect } from 'kysely';
import { generate, PostgresDialect } from 'kysely-codegen';
import pg from 'pg';
import { migrateToLatest } from '../src/adapters/outbound/persistence/migrator.js';
import { adminQuery, startDatabaseServer, withDatabase } from '../test/support/database-server.js';

export const DATABASE_TYPES_FILE = 'src/adapters/outbound/persistence/kysely/database.generated.ts';

/**
 * jsonb columns, typed as the code uses them: read as the shape the code wrote, written as JSON text
 * (the repositories pass JSON.stringify's result). Without an override the generator types jsonb as
 * any JSON value on both sides.
 */
const JSON_OBJECT = 'ColumnType<Record<string, unknown>, string, string>';
const JSON_OPAQUE = 'ColumnType<unknown, string, string>';
const OVERRIDES: Record<string, string> = {
  'agent_mcp_servers.tools': JSON_OPAQUE,
  'agent_memory.value': JSON_OPAQUE,
  'agent_verifications.metadata': `Generated<${JSON_OBJECT}>`,
  'agents.config': `Generated<${JSON_OBJECT}>`,
  'outbox.payload': JSON_OBJECT,
  'skill_split_executions.allocations': JSON_OPAQUE,
  'skill_split_rules.splits': JSON_OPAQUE,
  'unmatched_payment_events.event': JSON_OBJECT,
  'users.notifications': 'Generated<ColumnType<Record<string, boolean>, string, string>>',
};

/**
 * A text column whose CHECK allows a fixed list (`status IN ('held', 'released')`) is typed as that
 * union of literals, read from the migrated schema: the generator alone sees only `text`.
 */
async function checkedUnions(pool: pg.Pool): Promise<Record<string, string>> {
  const { rows } = await pool.query<{ tbl: string; col: string; def: string; nullable: boolean; defaulted: boolean }>(`
    SELECT cl.relname AS tbl, a.attname AS col, pg_get_constraintdef(c.oid) AS def,
           NOT a.attnotnull AS nullable, a.atthasdef AS defaulted
      FROM pg_constraint c
      JOIN pg_class cl ON cl.oid = c.conrelid
      JOIN pg_namespace n ON n.oid = cl.relnamespace
      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
     WHERE c.contype = 'c' AND n.nspname = 'public' AND cardinality(c.conkey) = 1 AND a.atttypid = 'text'::regtype
     ORDER BY 1, 2, 3`);
  const unions: Record<string, string> = {};
  for (const r of rows) {
    // PostgreSQL prints `IN (...)` as `= ANY (ARRAY[...])` and a single value as `= '...'::text`.
    const m = /^CHECK \(\(*(\w+) = (?:ANY \(ARRAY\[(.*)\]\)|('[^']*'::text))\)+$/.exec(r.def);
    if (!m || m[1] !== r.col) continue;
    const values = [...(m[2] ?? m[3] ?? '').matchAll(/'([^']*)'::text/g)].map((v) => `'${v[1]}'`);
    if (values.length === 0) continue;
    const union = `${values.join(' | ')}${r.nullable ? ' | null' : ''}`;
    unions[`${r.tbl}.${r.col}`] = r.defaulted ? `Generated<${union}>` : union;
  }
  return unions;
}

/** The generated module for the database at `url` (already migrated). */
export async function generateDatabaseTypes(url: string): Promise<string> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const db = new Kysely<unknown>({ dialect: new KyselyPostgresDialect({ pool }) });
  const warn = console.warn;
  // The generator parses each override with TypeScript's JS API, which TypeScript 7 no longer has;
  // it then keeps the override's text as written, which is what we want: drop that one warning.
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).startsWith('Failed to parse type expression')) warn(...args);
  };
  try {
    return await generate({
      // kysely-codegen is CommonJS and sees kysely's CommonJS typings: the same class to TypeScript's eye but for its #private.
      db: db as unknown as Parameters<typeof generate>[0]['db'],
      dialect: new PostgresDialect(),
      defaultSchemas: ['public'],
      // the application's tables only: not pg-boss's schema (its own), not the Migrator's bookkeeping
      includePattern: 'public.*',
      excludePattern: 'public.kysely_migration*',
      overrides: { columns: { ...(await checkedUnions(pool)), ...OVERRIDES } },
      print: false,
      outFile: null,
    });
  } finally {
    console.warn = warn;
    await db.destroy();
  }
}

/** A scratch database on the server at `adminUrl`, migrated, handed to `use`, then dropped. */
export async function withMigratedScratchDatabase<T>(adminUrl: string, use: (url: string) => Promise<T>): Promise<T> {
  const name = `db_types_${randomBytes(4).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  try {
    const url = withDatabase(adminUrl, name);
    const owner = new pg.Pool({ connectionString: url, max: 1 });
    try {
      await migrateToLatest(owner);
    } finally {
      await owner.end();
    }
    return await use(url);
  } finally {
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

async function main(): Promise<void> {
  const server = await startDatabaseServer((m) => console.log(`[db:types] ${m}`));
  try {
    const generated = await withMigratedScratchDatabase(server.adminUrl, generateDatabaseTypes);
    const before = readFileSync(DATABASE_TYPES_FILE, 'utf8');
    writeFileSync(DATABASE_TYPES_FILE, generated);
    console.log(`[db:types] ${DATABASE_TYPES_FILE} ${before === generated ? 'unchanged' : 'regenerated'}`);
  } finally {
    await server.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
