// `npm run demo`: drives the preferences sample with the official MCP client over stdio and over
// HTTP, five workflows each, round by round, and prints what was asked, what was answered and
// what came back. `npm run demo -- --check` prints one line per workflow instead of the
// transcript. Both check every round and exit 1 on any deviation, naming the workflow and round.
//
// ROUNDTRIP_MCP_DIST=/path/to/dist/src selects another compiled framework build for the server
// children (see framework-override.ts); default: this checkout's dist/src.
import fs from "node:fs";
import path from "node:path";
import { runWorkflow } from "./demo/run-workflow";
import { connectHttp, connectStdio, type Connection, type ServerLaunch, type TransportName } from "./demo/servers";
import { checkLines, summaryLine, transcript, type TransportRecords } from "./demo/transcript";
import { WORKFLOWS } from "./demo/workflows";

/** Read by framework-override.ts in the server children (not imported here: it would hook this process too). */
const FRAMEWORK_DIST_VARIABLE = "ROUNDTRIP_MCP_DIST";
const USAGE = "usage: node dist/sample/preferences/demo.js [--check]";
const TRANSPORTS: readonly [TransportName, (launch: ServerLaunch) => Promise<Connection>][] = [
  ["stdio", connectStdio],
  ["http", connectHttp],
];

function clientVersion(): string {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../../package.json"), "utf8")) as {
      devDependencies?: Record<string, string>;
    };
    return manifest.devDependencies?.["@modelcontextprotocol/client"] ?? "(unknown version)";
  } catch {
    return "(unknown version)";
  }
}

/** Diagnostics the child wrote, minus the expected ephemeral-key warning, for failure reports. */
function childNotes(connection: Connection): string[] {
  return connection
    .stderr()
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.includes("ephemeral key"))
    .map((line) => `  server stderr: ${line}`);
}

type Started = { connection: Connection } | { error: unknown };

/** Starts a server child and connects; never rejects, so both transports can start at once. */
function start(connect: (launch: ServerLaunch) => Promise<Connection>, launch: ServerLaunch): Promise<Started> {
  return connect(launch).then(
    (connection) => ({ connection }),
    (error: unknown) => ({ error }),
  );
}

async function runTransport(
  transport: TransportName,
  started: Promise<Started>,
  selectedBuild: string | undefined,
): Promise<{ records: TransportRecords; notes: string[] }> {
  const records: TransportRecords = { transport, workflows: [] };
  const outcome = await started;
  if ("error" in outcome) {
    const { error } = outcome;
    records.failure = `could not start the server or connect: ${error instanceof Error ? error.message : String(error)}`;
    return { records, notes: [] };
  }
  const { connection } = outcome;
  records.served = connection.served;
  try {
    for (const workflow of WORKFLOWS) records.workflows.push(await runWorkflow(connection.client, connection.recorder, workflow));
  } finally {
    await connection.close();
  }
  if (selectedBuild !== undefined && !connection.stderr().includes(`roundtrip-mcp: using the build at ${selectedBuild}`)) {
    records.failure = `the server did not report loading the build ${FRAMEWORK_DIST_VARIABLE} names (${selectedBuild})`;
  }
  const failed = records.failure !== undefined || records.workflows.some((w) => w.failure);
  return { records, notes: failed ? childNotes(connection) : [] };
}

async function main(args: readonly string[]): Promise<number> {
  const unknown = args.filter((a) => a !== "--check");
  if (unknown.length > 0) {
    console.error(`unknown argument ${unknown[0]}\n${USAGE}`);
    return 2;
  }
  const check = args.includes("--check");
  const began = performance.now();
  const selected = process.env[FRAMEWORK_DIST_VARIABLE] || undefined;
  const selectedBuild = selected === undefined ? undefined : path.resolve(selected);
  if (selectedBuild !== undefined && !fs.existsSync(path.join(selectedBuild, "index.js"))) {
    console.error(
      `${FRAMEWORK_DIST_VARIABLE}=${selected}: no index.js there; point it at a compiled roundtrip-mcp build (a checkout's dist/src)`,
    );
    return 2;
  }
  const launch: ServerLaunch = {
    sampleDir: __dirname,
    nodeArgs: selectedBuild === undefined ? [] : ["--require", path.join(__dirname, "framework-override.js")],
    env: process.env,
  };
  const framework = selectedBuild ?? path.dirname(require.resolve("roundtrip-mcp"));
  const inside = path.relative(process.cwd(), framework);
  const shownFramework = inside !== "" && !inside.startsWith("..") && !path.isAbsolute(inside) ? inside : framework;

  console.log("roundtrip-mcp preferences demo");
  console.log(
    `  client     @modelcontextprotocol/client ${clientVersion()}, pinned to 2026-07-28, manual MRTR: every round is a new request`,
  );
  console.log(
    `  framework  ${shownFramework}${selectedBuild === undefined ? " (this checkout's build)" : ` (${FRAMEWORK_DIST_VARIABLE})`}`,
  );
  console.log(
    `  workflows  ${WORKFLOWS.map((w) => w.id).join(", ")}; over ${TRANSPORTS.map(([t]) => t).join(" and ")}; read-only, no public services`,
  );

  // Both children start at once (process start-up dominates); the workflows then run one transport after the other.
  const starting = TRANSPORTS.map(([transport, connect]) => [transport, start(connect, launch)] as const);
  const all: TransportRecords[] = [];
  for (const [transport, started] of starting) {
    const { records, notes } = await runTransport(transport, started, selectedBuild);
    all.push(records);
    for (const line of check ? checkLines(records) : transcript(records)) console.log(line);
    for (const line of notes) console.log(line);
  }

  const expectedRuns = WORKFLOWS.length * TRANSPORTS.length;
  const summary = summaryLine(all, expectedRuns, (performance.now() - began) / 1000);
  console.log(check ? summary : `\n${summary}`);
  const failed = all.some(
    (t) => t.failure !== undefined || t.workflows.length !== WORKFLOWS.length || t.workflows.some((w) => w.failure !== undefined),
  );
  return failed ? 1 : 0;
}

// Ending early (Ctrl-C, a closed pipe) still runs the exit hooks that stop the server children.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(1);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
