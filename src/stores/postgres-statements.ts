// The PostgreSQL store's SQL: every statement, built once per tasks table.
import type { PgQueryResultRow as QueryResultRow } from "./pg-client";
import { type BatchSelection, type RowAt, TASK_COLUMNS, TIME_COLUMNS, type TaskRow } from "./task-row";
import { ACTIVE, notExpired, selectionSql } from "./task-sql";

const JSON_COLUMNS: ReadonlySet<string> = new Set([
  "input",
  "progress",
  "result",
  "error",
  "input_requests",
  "input_responses",
  "input_keys",
]);
const BIGINT_COLUMNS: ReadonlySet<string> = new Set(["ttl_ms", "poll_interval_ms"]);

/** Milliseconds since the epoch as a float8 (pg hands bigint and numeric back as strings). */
const ms = (expr: string): string => `round(extract(epoch FROM ${expr}) * 1000)::float8`;
/** The store's clock: the database's, unless parameter `param` carries a test clock. */
const clock = (param: string): string => `coalesce('epoch'::timestamptz + ${param}::float8 * interval '1 millisecond', clock_timestamp())`;
/** A column as a TaskRow field. */
const selected = (c: string): string =>
  TIME_COLUMNS.has(c as keyof TaskRow)
    ? `${ms(c)} AS ${c}`
    : JSON_COLUMNS.has(c)
      ? `${c}::text AS ${c}`
      : BIGINT_COLUMNS.has(c)
        ? `${c}::float8 AS ${c}`
        : c;
/** A TaskRow field in parameter `param` as a column value. */
const stored = (c: string, param: string): string =>
  TIME_COLUMNS.has(c as keyof TaskRow)
    ? `'epoch'::timestamptz + ${param}::bigint * interval '1 millisecond'`
    : JSON_COLUMNS.has(c)
      ? `${param}::json`
      : param;

const SELECT_ROW = TASK_COLUMNS.map(selected).join(", ");

/** A selected row and the clock read with it. */
export function atRow(raw: QueryResultRow | undefined): RowAt | undefined {
  if (!raw) return undefined;
  const { now_ms, ...row } = raw;
  return { row: row as TaskRow, now: now_ms as number };
}

/** The store's SQL for the tasks table `table` (schema-qualified). */
export function postgresStatements(table: string) {
  const params = TASK_COLUMNS.map((c, i) => stored(c, `$${i + 1}`));
  const update = `UPDATE ${table} SET ${TASK_COLUMNS.map((c, i) => `${c} = ${params[i]}`)
    .slice(1)
    .join(", ")} WHERE id = $1`;
  const batch = (selection: BatchSelection) =>
    `WITH c AS (SELECT ${clock("$2")} AS now) SELECT ${SELECT_ROW}, ${ms("c.now")} AS now_ms FROM ${table} t, c WHERE ${selectionSql(selection, "c.now", "t")} LIMIT $1 FOR UPDATE OF t SKIP LOCKED`;
  const count = (principal: string, now: string) =>
    `WITH c AS (SELECT ${clock(now)} AS now) SELECT count(t.id)::int AS total, (count(t.id) FILTER (WHERE t.${ACTIVE}))::int AS active, ${ms("c.now")} AS now_ms ` +
    `FROM c LEFT JOIN ${table} t ON ${principal} AND ${notExpired("c.now", "t.expires_at")} GROUP BY c.now`;
  return {
    read: `SELECT ${SELECT_ROW}, ${ms(clock("$2"))} AS now_ms FROM ${table} WHERE id = $1`,
    lock: `SELECT ${SELECT_ROW}, ${ms(clock("$2"))} AS now_ms FROM ${table} WHERE id = $1 FOR UPDATE`,
    watched: `SELECT ${SELECT_ROW}, ${ms(clock("$2"))} AS now_ms FROM ${table} WHERE id = ANY($1::text[])`,
    byCreationKey: `SELECT ${SELECT_ROW}, ${ms(clock("$2"))} AS now_ms FROM ${table} WHERE creation_key = $1`,
    clearCreationKey: `UPDATE ${table} SET creation_key = NULL WHERE creation_key = $1`,
    insert: `INSERT INTO ${table} (${TASK_COLUMNS.join(", ")}) VALUES (${params.join(", ")})`,
    update,
    updateAndNotify: `WITH u AS (${update} RETURNING id, revision) SELECT pg_notify($${TASK_COLUMNS.length + 1}, u.id || ' ' || u.revision) FROM u`,
    count: count("t.principal = $2", "$1"),
    countAnonymous: count("t.principal IS NULL", "$1"),
    claimable: batch("claimable"),
    abandoned: batch("abandoned"),
    reap:
      `WITH c AS (SELECT ${clock("$2")} AS now), d AS (DELETE FROM ${table} WHERE id = ANY(ARRAY(` +
      `SELECT x.id FROM ${table} x, c WHERE x.expires_at <= c.now ORDER BY x.expires_at LIMIT $1 FOR UPDATE OF x SKIP LOCKED)) RETURNING id) ` +
      `SELECT d.id, pg_notify($3, d.id || ' gone') FROM d`,
  };
}
