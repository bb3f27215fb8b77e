// Features beyond tools, resources and prompts, with the components that need them: the tasks
// extension (docs/tasks.md), for ticket_report. Its tasks live in memory and end with the process:
// for tasks that outlive it, `npm install better-sqlite3@12` and drop the store option (a SQLite
// file is the default store), or give a PostgreSQL URL for several instances.
import { tasks, type McpAppOptions } from "roundtrip-mcp";
import { TicketReport } from "./ticket-report";

export const EXTENSIONS: NonNullable<McpAppOptions["features"]> = [tasks({ store: "memory:" })];
export const EXTENSION_COMPONENTS: McpAppOptions["components"] = [TicketReport];
