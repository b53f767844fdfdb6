import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { queryPipelined, queryPositional } from '../../../src/adapters/outbound/persistence/positional-query.js';
import { openTestPersistence } from '../../support/persistence.js';

const { db } = await openTestPersistence();
const client = new pg.Client({ connectionString: db.url });
await client.connect();
afterAll(() => client.end());

const preparedCount = async () => (await client.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = 'pq_test'`)).rows[0].n as number;

describe('a positional query: a named prepared statement answered as text by position', () => {
  it('returns each column as the text PostgreSQL sent, null as null, in the order the statement names them', async () => {
    const rows = await queryPositional(client, 'pq_test', `SELECT $1::text AS a, NULL::int AS b, 42::int8 AS c, true AS d, '{"k":1}'::jsonb AS e FROM generate_series(1, 2)`, ['x,y']);
    expect(rows).toEqual([['x,y', null, '42', 't', '{"k": 1}'], ['x,y', null, '42', 't', '{"k": 1}']]);
  });

  it('prepares once per connection and reuses the statement, mixed with ordinary queries of the same name', async () => {
    const text = 'SELECT $1::text || $2::text';
    for (let i = 0; i < 3; i++) {
      await expect(queryPositional(client, 'pq_test2', text, [`a${i}`, 'b'])).resolves.toEqual([[`a${i}b`]]);
      await expect(client.query({ name: 'pq_test2', text, values: [`c${i}`, 'd'] })).resolves.toMatchObject({ rows: [{ '?column?': `c${i}d` }] });
    }
    expect((await client.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = 'pq_test2'`)).rows[0].n).toBe(1);
    expect(await preparedCount()).toBe(1);
  });

  it('an error rejects with the server error, and the connection answers the next query', async () => {
    await expect(queryPositional(client, 'pq_fail', 'SELECT 1 / $1::int', ['0'])).rejects.toMatchObject({ code: '22012' });
    await expect(queryPositional(client, 'pq_fail', 'SELECT 1 / $1::int', ['1'])).resolves.toEqual([['1']]);
    await expect(client.query('SELECT 2 AS two')).resolves.toMatchObject({ rows: [{ two: 2 }] });
  });

  it('a statement that does not parse is not remembered as prepared: the next call parses it again', async () => {
    await expect(queryPositional(client, 'pq_bad', 'SELEC 1', [])).rejects.toMatchObject({ code: '42601' });
    await expect(client.query('SELECT 3 AS three')).resolves.toMatchObject({ rows: [{ three: 3 }] });
  });

  it('no rows is an empty list', async () => {
    await expect(queryPositional(client, 'pq_none', 'SELECT 1 WHERE false', [])).resolves.toEqual([]);
  });

  it('several statements go in one round trip and one implicit transaction: a local setting reaches the next statement and ends with them', async () => {
    const set = { name: 'pq_set', text: `SELECT set_config('pq.x', $1, true)`, values: ['seen'] };
    const read = { name: 'pq_read', text: `SELECT current_setting('pq.x', true), now() = statement_timestamp()`, values: [] };
    for (let i = 0; i < 2; i++) {
      const [first, second] = await queryPipelined(client, [set, read]);
      expect(first).toEqual([['seen']]);
      // the second statement's transaction began before it: the two shared one
      expect(second).toEqual([['seen', 'f']]);
    }
    expect((await client.query(`SELECT coalesce(current_setting('pq.x', true), '') AS x`)).rows).toEqual([{ x: '' }]);
  });

  it('a failing first statement skips the rest and rolls the transaction back; the statements still run afterwards', async () => {
    await client.query('CREATE TEMP TABLE pq_t (n int)');
    const insert = { name: 'pq_insert', text: 'INSERT INTO pq_t VALUES ($1::int)', values: ['1'] };
    const fail = { name: 'pq_div', text: 'SELECT 1 / $1::int', values: ['0'] };
    await expect(queryPipelined(client, [insert, fail, { ...insert, values: ['2'] }])).rejects.toMatchObject({ code: '22012' });
    expect((await client.query('SELECT count(*)::int AS n FROM pq_t')).rows).toEqual([{ n: 0 }]);
    await expect(queryPipelined(client, [insert, { ...fail, values: ['1'] }])).resolves.toEqual([[], [['1']]]);
    expect((await client.query('SELECT n FROM pq_t')).rows).toEqual([{ n: 1 }]);
  });
});
