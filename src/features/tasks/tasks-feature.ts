import type { FeatureModule } from "../feature-module";
import type * as TasksParts from "./tasks-parts";
import type { TasksOptions } from "./tasks-options";

/**
 * The tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`): tools declared with
 * `@Tool({ task })` may answer `tools/call` with a task the client polls (`tasks/get`), answers
 * (`tasks/update`) and cancels (`tasks/cancel`). Tasks live in a durable store, a SQLite file in
 * the data directory unless `store` names another (PostgreSQL for several instances).
 * See docs/tasks.md.
 *
 * @example const app = McpApp.create({ components: [Reports], state: { ephemeral: true }, features: [tasks()] });
 */
export function tasks(options: TasksOptions = {}): FeatureModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the extension loads only when an app lists it (startup)
  return (require("./tasks-parts") as typeof TasksParts).tasksFeature(options);
}
