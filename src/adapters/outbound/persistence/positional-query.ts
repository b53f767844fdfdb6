import pg from 'pg';

/** A row as PostgreSQL sent it: each column's text, in the order the statement names them. */
export type TextRow = readonly (string | null)[];

interface ProtocolConnection {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  parse(config: { text: string; name: string }): void;
  bind(config: { portal: string; statement: string; values: readonly (string | null)[] }): void;
  execute(config: { portal: string; rows: number }): void;
  sync(): void;
}

/**
 * A named prepared statement whose rows come back as text by position. It sends no Describe, so
 * the server sends no RowDescription and pg builds no per-call type parsers, empty-row template or
 * row objects: on the profile read (11 columns, two timestamps, an array) that per-call work cost
 * more CPU than the rest of the client's part of the round trip (see docs/decisions/0360-hot-reads-as-positional-text.md).
 * The caller names its columns in the statement text and converts each one by position.
 *
 * It follows pg.Query's own extended-protocol steps (pg 8.x: parse once per connection and name,
 * tracked in `parsedStatements`/`submittedNamedStatements`; bind; execute; sync), overriding only
 * what it does with the answer; test/integration/persistence/positional-query.test.ts holds it to them.
 * Values are text or null: what the hot calls pass (a uuid and text arguments).
 */
class PositionalQuery extends pg.Query {
  // not `rows`: pg.Query reads that as a page size, and a truthy one would send an extra Sync
  readonly textRows: TextRow[] = [];

  constructor(private readonly statement: { name: string; text: string; values: readonly (string | null)[] }, callback: (err: Error | null | undefined) => void) {
    // The text alone: pg copies a config object's every property descriptor on each call.
    super(statement.text, (err) => callback(err));
    // read by the client to record the statement as parsed on this connection
    (this as unknown as { name: string }).name = statement.name;
  }

  /** pg.Query.prepare without its Describe step. */
  prepare(connection: ProtocolConnection): void {
    const { name, text, values } = this.statement;
    if (connection.parsedStatements[name] === undefined && connection.submittedNamedStatements[name] === undefined) {
      connection.parse({ text, name });
      connection.submittedNamedStatements[name] = text;
    }
    connection.bind({ portal: '', statement: name, values });
    connection.execute({ portal: '', rows: 0 });
    connection.sync();
  }

  handleDataRow(msg: { fields: (string | null)[] }): void {
    this.textRows.push(msg.fields);
  }
}

/** Runs a named prepared statement on `client`; resolves with its rows as positional text. */
export function queryPositional(client: pg.ClientBase, name: string, text: string, values: readonly (string | null)[]): Promise<TextRow[]> {
  return new Promise((resolve, reject) => {
    const query: PositionalQuery = new PositionalQuery({ name, text, values }, (err) => (err ? reject(err) : resolve(query.textRows)));
    client.query(query);
  });
}
