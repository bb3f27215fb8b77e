// Serves the tasks sample over Streamable HTTP on 127.0.0.1: `npm run start:tasks`.
// PORT picks the port (default 3000; 0 takes a free one). The first stdout line holds the URL.
import { createReportApp } from "./report-app";

async function main(): Promise<void> {
  const port = Number(process.env.PORT || 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new RangeError(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(process.env.PORT)}`);
  const app = createReportApp();
  const listener = await app.listen({ host: "127.0.0.1", port, path: "/mcp" });
  console.log(`tasks sample listening on ${listener.url}`);
  // SIGTERM / SIGINT: a graceful close (new requests get 503, those in flight are answered, running
  // tasks handed over), then exit 0; a second signal ends the process at once.
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`close failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
