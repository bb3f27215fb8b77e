// How every benchmark server ends: on SIGTERM, SIGINT, or when stdin ends (the parent went away,
// stdin is its lifeline), it runs `close` once and exits (0, or 1 when closing failed).
export function exitWhenAsked(close: () => Promise<void>): void {
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
  process.stdin.on("end", shutdown);
  process.stdin.on("error", shutdown);
  process.stdin.resume();
}
