/*
 * The tasks feature's code: required by the first `tasks()` call (tasks-feature.ts), so an app that
 * does not list the feature never loads it, its runtime or the stores (issue 24).
 */
import { DEFAULT_TASK_LIMITS, type TaskLimits } from "../../stores/task-store";
import type { FeatureModule } from "../feature-module";
import { taskMethods } from "./task-methods";
import { TaskRuntime } from "./task-runtime";
import { compileTaskTools } from "./task-tool";
import { TASKS_EXTENSION, receivesTasks, tasksCapabilityMissing } from "./tasks-extension";
import { tasksSettings, type TasksOptions } from "./tasks-options";

/** `tasks(options)`, loaded by its first call (tasks-feature.ts). */
export function tasksFeature(options: TasksOptions): FeatureModule {
  const settings = tasksSettings(options);
  return {
    name: TASKS_EXTENSION,
    compile({ components, declarations, logger, appName, scopes }) {
      const tools = compileTaskTools(components, declarations, settings);
      // `sqlite:` with no dataDir: a folder named after the app, so two apps never share a file.
      const storeOptions = { ...settings.storeOptions, appName: settings.storeOptions.appName ?? appName };
      const runtime = new TaskRuntime({ ...settings, storeOptions }, tools.values(), logger);
      let warned = false;
      return {
        // Advertised (modern era only) as long as the feature is listed, even with no task tool:
        // tasks/get of a task created by another instance still works here.
        capabilities: (era) => (era === "modern" ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
        methods: taskMethods(
          () => runtime.store(),
          logger,
          (toolName) => components.find((c) => c.ref.kind === "tool" && c.ref.name === toolName)?.scopes ?? [],
          scopes,
        ),
        execution: {
          claims: (component) => tools.has(component),
          admit(component, ctx) {
            // Before any round: a client that cannot receive a task is told at once.
            if (tools.get(component)?.support === "required" && !receivesTasks(ctx)) throw tasksCapabilityMissing(ctx);
          },
          execute: (invocation) => runtime.execute(tools.get(invocation.component)!, invocation),
        },
        start: (runner) => runtime.start(runner),
        serving({ authenticated }) {
          if (authenticated || tools.size === 0 || warned) return;
          warned = true;
          // Limits protect one caller from another only when callers have identities.
          logger.warn(anonymousTasksWarning(typeof settings.store === "string" ? settings.storeOptions.limits : settings.store.limits));
        },
        readiness: [{ name: "taskStore", check: async () => (await runtime.store()).ping() }],
        describe(component) {
          const tool = tools.get(component);
          return (
            tool && {
              support: tool.support,
              ttlMs: tool.ttlMs,
              pollIntervalMs: tool.pollIntervalMs,
              retryPolicy: tool.retryPolicy,
              maxAttempts: tool.maxAttempts,
            }
          );
        },
        close: () => runtime.close(),
      };
    },
  };
}

/** The start-up warning for task tools served over HTTP with no authenticator. */
function anonymousTasksWarning(configured: Partial<TaskLimits> | undefined): string {
  const limits = { ...DEFAULT_TASK_LIMITS, ...configured };
  return (
    "task tools are served over HTTP without an authenticator: every caller shares the anonymous task scope and its limits " +
    `(maxAnonymousTasks ${limits.maxAnonymousTasks}, maxActiveAnonymousTasks ${limits.maxActiveAnonymousTasks}), so one caller can use them up for all; ` +
    "give listen() an auth (OAuth, docs/authorization.md) or authenticate option so each caller gets limits of its own, or size the shared ones with tasks({ storeOptions: { limits } })"
  );
}
