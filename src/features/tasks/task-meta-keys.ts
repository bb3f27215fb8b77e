/*
 * The tasks extension's public `_meta` keys, apart from its code: the package's entry exports them
 * without loading the extension, which loads only when an app lists `tasks()` (issue 24).
 */

/**
 * The `_meta` key of a task-creating `tools/call` that names the creation, chosen by the client: a
 * retry with the same key (same principal, while the task lives) answers the task the first try
 * made instead of creating another.
 */
export const IDEMPOTENCY_KEY_META = "roundtrip-mcp/idempotencyKey";

/**
 * The `_meta` key of the tasks/update and tasks/cancel acknowledgements that says what the request
 * did. The extension's ack is an empty `{resultType: "complete"}` whatever happened (an answer to a
 * key not outstanding is ignored, a cancel of an ended task acknowledged alike), so whether it took
 * effect is told in `_meta`, where a client that does not know the key loses nothing.
 */
export const TASK_EFFECT_META = "roundtrip-mcp/effect";
