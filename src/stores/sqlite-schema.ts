/** Migrations of the SQLite task store, in order; the schema version is the number applied. */
export const SQLITE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE roundtrip_tasks (
    id               TEXT    NOT NULL PRIMARY KEY,
    principal        TEXT,
    tool_name        TEXT    NOT NULL,
    input            TEXT    NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('working', 'input_required', 'completed', 'failed', 'cancelled')),
    status_message   TEXT,
    progress         TEXT,
    created_at       INTEGER NOT NULL,
    last_updated_at  INTEGER NOT NULL,
    ttl_ms           INTEGER,
    expires_at       INTEGER,
    poll_interval_ms INTEGER,
    result           TEXT,
    error            TEXT,
    input_requests   TEXT    NOT NULL,
    input_responses  TEXT    NOT NULL,
    input_keys       TEXT    NOT NULL,
    retry_policy     TEXT    NOT NULL CHECK (retry_policy IN ('rerun', 'fail')),
    max_attempts     INTEGER NOT NULL,
    attempt          INTEGER NOT NULL,
    idempotency_key  TEXT    NOT NULL,
    lease_owner      TEXT    NOT NULL,
    lease_token      TEXT    NOT NULL,
    lease_expires_at INTEGER NOT NULL,
    revision         INTEGER NOT NULL
  );
  CREATE INDEX roundtrip_tasks_by_principal ON roundtrip_tasks (principal, status, expires_at);
  CREATE INDEX roundtrip_tasks_by_lease ON roundtrip_tasks (lease_expires_at) WHERE status IN ('working', 'input_required');
  CREATE INDEX roundtrip_tasks_by_expiry ON roundtrip_tasks (expires_at) WHERE expires_at IS NOT NULL;`,
  // 2: a client's creation key, unique per principal (the column holds both) among the tasks that keep it.
  `ALTER TABLE roundtrip_tasks ADD COLUMN creation_key TEXT;
  CREATE UNIQUE INDEX roundtrip_tasks_by_creation_key ON roundtrip_tasks (creation_key) WHERE creation_key IS NOT NULL;`,
];
