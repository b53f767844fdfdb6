import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DATABASE_TYPES_FILE, generateDatabaseTypes } from '../../../scripts/db-types.js';
import { createTestDatabase } from '../../support/test-database.js';

describe('the Kysely database types', () => {
  it('when the migrations are applied, then the committed types are exactly what kysely-codegen generates from them (npm run db:types)', async () => {
    const { url } = await createTestDatabase();
    const generated = await generateDatabaseTypes(url);
    expect(readFileSync(DATABASE_TYPES_FILE, 'utf8'), `${DATABASE_TYPES_FILE} is stale: run npm run db:types`).toBe(generated);
  }, 60_000);
});
