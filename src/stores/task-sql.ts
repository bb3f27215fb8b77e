import type { BatchSelection } from "./task-row";

/*
 * The SQL both database stores share: the predicates of task-row.ts (isActive, isExpired,
 * isClaimable, isAbandoned) written over columns, with `now` standing for the store's clock
 * expression or parameter. The transitions check the same predicates again on each row.
 */

/** Matches the partial index on lease_expires_at in both schemas. */
export const ACTIVE = "status IN ('working', 'input_required')";

export const notExpired = (now: string, column = "expires_at"): string => `(${column} IS NULL OR ${column} > ${now})`;

const mayRunAgain = "(retry_policy = 'rerun' AND attempt < max_attempts)";

/**
 * The conditions and order of a batch (after WHERE): oldest lapsed lease first. The order names
 * the table (`table`.lease_expires_at) so that a select-list alias of the same name cannot
 * shadow it and cost the index its order.
 */
export function selectionSql(selection: BatchSelection, now: string, table: string): string {
  const policy = selection === "claimable" ? mayRunAgain : `NOT ${mayRunAgain}`;
  return `${ACTIVE} AND lease_expires_at <= ${now} AND ${policy} AND ${notExpired(now)} ORDER BY ${table}.lease_expires_at`;
}
