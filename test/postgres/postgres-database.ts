// The database of `npm run test:postgres`: TEST_POSTGRES_URL, set by with-postgres.ts. Without it
// the suites fail (never skip): a PostgreSQL test that silently did not run proves nothing.
import { randomBytes } from "node:crypto";
import { Client } from "pg";

export function postgresUrl(): string {
  const url = process.env.TEST_POSTGRES_URL;
  if (!url)
    throw new Error("TEST_POSTGRES_URL is not set: run these suites with `npm run test:postgres`, which starts a throwaway PostgreSQL");
  return url;
}

/** A schema name of its own for one test's tables. */
export function freshSchema(): string {
  return `t_${randomBytes(6).toString("hex")}`;
}

/** Runs SQL on the test database (or the one at `url`) over a connection of its own. */
export async function sql<T = Record<string, unknown>>(text: string, values: unknown[] = [], url = postgresUrl()): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}
