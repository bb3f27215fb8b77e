// The tasks sample as one app: the report tool, and the tasks feature with its store named by
// TASK_STORE (default: the SQLite file tasks.sqlite in DATA_DIR when set, else in this app's own
// data directory, <tmpdir>/roundtrip-mcp/roundtrip-mcp-reports). Sealed state with a process-lifetime key (local use only).
import { McpApp, tasks, type McpAppOptions } from "roundtrip-mcp";
import { ReportTools } from "./report-tool";

export function createReportApp(overrides: Partial<McpAppOptions> = {}): McpApp {
  return McpApp.create({
    name: "roundtrip-mcp-reports",
    version: "1.0.0",
    components: [ReportTools],
    state: { ephemeral: true },
    features: [tasks({ store: process.env.TASK_STORE || "sqlite:", storeOptions: { dataDir: process.env.DATA_DIR || undefined } })],
    ...overrides,
  });
}
