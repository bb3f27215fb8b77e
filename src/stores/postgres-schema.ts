/**
 * Migrations of the PostgreSQL task store, in order, for the tables of schema `s` (a validated
 * identifier, or "public"); the schema version is the number applied.
 */
export const postgresMigrations = (s: string): readonly string[] => [
  `CREATE TABLE ${s}.roundtrip_tasks (
    id               text        NOT NULL PRIMARY KEY,
    principal        text,
    tool_name        text        NOT NULL,
    input            json        NOT NULL,
    status           text        NOT NULL CHECK (status IN ('working', 'input_required', 'completed', 'failed', 'cancelled')),
    status_message   text,
    progress         json,
    created_at       timestamptz NOT NULL,
    last_updated_at  timestamptz NOT NULL,
    ttl_ms           bigint,
    expires_at       timestamptz,
    poll_interval_ms bigint,
    result           json,
    error            json,
    input_requests   json        NOT NULL,
    input_responses  json        NOT NULL,
    input_keys       json        NOT NULL,
    retry_policy     text        NOT NULL CHECK (retry_policy IN ('rerun', 'fail')),
    max_attempts     integer     NOT NULL,
    attempt          integer     NOT NULL,
    idempotency_key  text        NOT NULL,
    lease_owner      text        NOT NULL,
    lease_token      text        NOT NULL,
    lease_expires_at timestamptz NOT NULL,
    revision         integer     NOT NULL
  );
  CREATE INDEX roundtrip_tasks_by_principal ON ${s}.roundtrip_tasks (principal, status, expires_at);
  CREATE INDEX roundtrip_tasks_by_lease ON ${s}.roundtrip_tasks (lease_expires_at) WHERE status IN ('working', 'input_required');
  CREATE INDEX roundtrip_tasks_by_expiry ON ${s}.roundtrip_tasks (expires_at) WHERE expires_at IS NOT NULL;`,
  // 2: a client's creation key, unique per principal (the column holds both) among the tasks that keep it.
  `ALTER TABLE ${s}.roundtrip_tasks ADD COLUMN creation_key text;
  CREATE UNIQUE INDEX roundtrip_tasks_by_creation_key ON ${s}.roundtrip_tasks (creation_key) WHERE creation_key IS NOT NULL;`,
];
