/** The smallest shape of "something that runs SQL in my transaction", as pg-boss's `db` option wants. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}
