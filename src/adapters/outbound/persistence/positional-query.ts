import pg from 'pg';

/** A row as PostgreSQL sent it: each column's text, in the order the statement names them. */
export type TextRow = readonly (string | null)[];

/** A named prepared statement and the values of one execution. Values are text or null. */
export interface Statement {
  name: string;
  text: string;
  values: readonly (string | null)[];
}

interface ProtocolConnection {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  parse(config: { text: string; name: string }): void;
  bind(config: { portal: string; statement: string; values: readonly (string | null)[] }): void;
  execute(config: { portal: string; rows: number }): void;
  sync(): void;
}

/**
 * Named prepared statements executed one after the other in one network write and one implicit
 * transaction: each is bound and executed after the previous one ran, and a single Sync ends the
 * transaction (a failure skips the rest and rolls back). Rows come back as text by position: no
 * Describe is sent, so the server sends no RowDescription and pg builds no per-call type parsers,
 * empty-row template or row objects (see docs/decisions/0360-hot-reads-as-positional-text.md).
 *
 * It follows pg.Query's own extended-protocol steps (pg 8.x: parse once per connection and name,
 * tracked in `parsedStatements`/`submittedNamedStatements`; bind; execute; sync), overriding only
 * what it sends and what it does with the answer; test/integration/persistence/positional-query.test.ts
 * holds it to them.
 */
/** pg.Query with the protocol steps this module overrides or calls, which pg's type declarations leave out. */
const ProtocolQuery = pg.Query as unknown as new (text: string, callback: (err: Error | null | undefined) => void) => pg.Query & {
  name: string;
  handleReadyForQuery(connection: ProtocolConnection): void;
};

class PipelinedQuery extends ProtocolQuery {
  /** Each statement's rows. Not `rows`: pg.Query reads that as a page size, and a truthy one would send an extra Sync. */
  readonly results: TextRow[][];
  private completed = 0;

  constructor(private readonly statements: readonly Statement[], callback: (err: Error | null | undefined) => void) {
    // The text alone: pg copies a config object's every property descriptor on each call.
    super(statements[statements.length - 1]!.text, (err) => callback(err));
    // read by the client to record the statement as parsed on this connection
    this.name = statements[statements.length - 1]!.name;
    this.results = statements.map(() => []);
  }

  /** pg.Query.prepare for several statements, without its Describe step. */
  prepare(connection: ProtocolConnection): void {
    for (const { name, text, values } of this.statements) {
      if (connection.parsedStatements[name] === undefined && connection.submittedNamedStatements[name] === undefined) {
        connection.parse({ text, name });
        connection.submittedNamedStatements[name] = text;
      }
      connection.bind({ portal: '', statement: name, values });
      connection.execute({ portal: '', rows: 0 });
    }
    connection.sync();
  }

  handleDataRow(msg: { fields: (string | null)[] }): void {
    this.results[this.completed]?.push(msg.fields);
  }

  handleCommandComplete(): void {
    this.completed++;
  }

  override handleReadyForQuery(connection: ProtocolConnection): void {
    // The client records only the last statement as parsed; the others were parsed in the same write.
    for (const { name, text } of this.statements) connection.parsedStatements[name] ??= text;
    super.handleReadyForQuery(connection);
  }
}

/** Runs `statements` on `client` in one round trip and one implicit transaction; resolves with each one's rows as positional text. */
export function queryPipelined(client: pg.ClientBase, statements: readonly Statement[]): Promise<TextRow[][]> {
  return new Promise((resolve, reject) => submitPipelined(client, statements, (err, results) => (err ? reject(err) : resolve(results))));
}

/** queryPipelined with a callback instead of a promise, for a caller that makes its own one promise of a whole call. */
export function submitPipelined(client: pg.ClientBase, statements: readonly Statement[], done: (err: Error | null | undefined, results: TextRow[][]) => void): void {
  const query: PipelinedQuery = new PipelinedQuery(statements, (err) => done(err, query.results));
  client.query(query);
}

/** One named prepared statement; resolves with its rows as positional text. */
export async function queryPositional(client: pg.ClientBase, name: string, text: string, values: readonly (string | null)[]): Promise<TextRow[]> {
  return (await queryPipelined(client, [{ name, text, values }]))[0]!;
}
