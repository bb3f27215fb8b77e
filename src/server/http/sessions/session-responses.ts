/** A JSON-RPC error as the 2025 session transport answers one (no id: it concerns the HTTP request). */
export function jsonError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers });
}

export function notFound(): Response {
  // The 2025-11-25 transport: an unknown or ended session is 404, and the client initializes again.
  return jsonError(404, -32001, "Session not found: initialize a new session");
}

/** An answer no round waits for: never acknowledged 202, so the client knows it went nowhere. */
export function notWaiting(): Response {
  return jsonError(
    400,
    -32602,
    "No question of this session waits for this answer: it was answered already, withdrawn after sessions.answerTimeoutMs, or its call ended",
  );
}

/**
 * An answer that could not be recorded or passed to the instance waiting for it (the shared
 * database or bus is unavailable): 503, so the client knows it was not taken and may send it
 * again, instead of a 202 for an answer lost.
 */
export function relayRefused(): Response {
  return jsonError(
    503,
    -32000,
    "This answer could not be passed to the server instance waiting for it (the shared message bus is unavailable); send it again shortly",
    { "retry-after": "1" },
  );
}
