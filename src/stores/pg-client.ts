// The few shapes of `pg` the PostgreSQL store uses, written out so that the emitted .d.ts never
// import "pg": an app that does not use PostgreSQL compiles without pg or @types/pg installed.
// A pg.Pool is assignable to PgPool: PostgresTaskStore.open assigns one, so the typecheck proves it.

/** A row as pg returns it. */
export interface PgQueryResultRow {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's own type says any: a pg.Pool must stay assignable
  [column: string]: any;
}

/** What a query resolves to. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's own type says any: a pg.Pool must stay assignable
export interface PgQueryResult<R extends PgQueryResultRow = any> {
  rows: R[];
  rowCount: number | null;
}

/** A query with options of its own (pg's `QueryConfig`; `query_timeout` bounds this one query). */
export interface PgQueryConfig {
  text: string;
  values?: unknown[];
  query_timeout?: number;
}

/** A LISTEN notification. */
export interface PgNotification {
  processId: number;
  channel: string;
  payload?: string | undefined;
}

/** One connection checked out of a pool. */
export interface PgPoolClient {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's own type says any: a pg.Pool must stay assignable
  query<R extends PgQueryResultRow = any>(text: string, values?: any[]): Promise<PgQueryResult<R>>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  query<R extends PgQueryResultRow = any>(config: PgQueryConfig): Promise<PgQueryResult<R>>;
  release(destroy?: Error | boolean): void;
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "end", listener: () => void): unknown;
  on(event: "notification", listener: (message: PgNotification) => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
}

/** A `pg.Pool`, as the PostgreSQL task store uses it (pass your own as `pool`). */
export interface PgPool {
  readonly ending: boolean;
  readonly ended: boolean;
  /** The options the pool was made with (the store reads its bounds from them). */
  readonly options: { readonly max?: number; readonly connectionTimeoutMillis?: number; readonly query_timeout?: number };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's own type says any: a pg.Pool must stay assignable
  query<R extends PgQueryResultRow = any>(text: string, values?: any[]): Promise<PgQueryResult<R>>;
  connect(): Promise<PgPoolClient>;
  end(): Promise<void>;
  on(event: "error", listener: (error: Error, client: PgPoolClient) => void): unknown;
  on(event: "connect" | "remove", listener: (client: PgPoolClient) => void): unknown;
  off(event: "error", listener: (error: Error, client: PgPoolClient) => void): unknown;
  off(event: "connect" | "remove", listener: (client: PgPoolClient) => void): unknown;
}
