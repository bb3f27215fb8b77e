// Serves the conformance fixtures over Streamable HTTP on 127.0.0.1:PORT/mcp (PORT default 3000,
// 0 for a free port) and prints exactly one line, the URL, once it accepts requests. Host and
// Origin may be localhost or 127.0.0.1. SIGTERM / SIGINT close it.
//
//   npm run start:conformance
import { createConformanceApp } from "./app";
import { closeOnSignal } from "../close-on-signal";

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`PORT must be an integer 0-65535, got ${process.env.PORT}`);
  const app = createConformanceApp();
  const listener = await app.listen({ port, host: "127.0.0.1", path: "/mcp" });
  process.stdout.write(`http://localhost:${listener.port}/mcp\n`);
  closeOnSignal(app);
}

main().catch((error: Error) => {
  process.stderr.write(`conformance server failed to start: ${error.message}\n`);
  process.exit(1);
});
