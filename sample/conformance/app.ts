// The conformance fixture server: every fixture the official MCP conformance suite
// (0.2.0-alpha.12, --requirements 2026-07-28 and 2025-11-25) calls by name, written as ordinary components.
import "reflect-metadata";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { McpApp, skills, tasks, type McpAppOptions, type SkillDefinition, type StateOptions } from "roundtrip-mcp";
import { sampleFolder } from "../sample-folder";
import { ClassicTools } from "./classic-tools";
import { Diagnostics } from "./diagnostics";
import { LegacyFixtures, POLL_AFTER_MS } from "./legacy-tools";
import { DeclarativeMrtr, HandwrittenMrtr } from "./mrtr-tools";
import { ConformancePrompts } from "./prompts";
import { ConformanceResources } from "./resources";
import { TaskFixtures } from "./task-tools";

export const CONFORMANCE_COMPONENTS = [
  DeclarativeMrtr,
  HandwrittenMrtr,
  ClassicTools,
  Diagnostics,
  ConformanceResources,
  ConformancePrompts,
  TaskFixtures,
  LegacyFixtures,
];

/** Environment variable naming the task store: `memory:`, `sqlite:<file>` or a `postgres://` URL. */
export const TASK_STORE_ENV = "TASK_STORE";

/**
 * The task store URL: TASK_STORE, else a SQLite file in a temporary folder of this process,
 * removed when the process exits.
 */
export function conformanceTaskStore(): string {
  const given = process.env[TASK_STORE_ENV];
  if (given !== undefined && given !== "") return given;
  const folder = mkdtempSync(path.join(os.tmpdir(), "roundtrip-conformance-"));
  process.once("exit", () => rmSync(folder, { recursive: true, force: true }));
  return `sqlite:${path.join(folder, "tasks.sqlite")}`;
}

/** A skill registered from code beside the folder's (SEP-2640 scenarios read both kinds alike). */
export const GIT_WORKFLOW_SKILL: SkillDefinition = {
  path: "git-workflow",
  files: {
    "SKILL.md":
      "---\nname: git-workflow\ndescription: Follow this team's Git conventions for branches, commits and pull requests.\n---\n\n" +
      "# Git workflow\n\nBranch from main as `issue-<n>-<topic>`; see [the commit guide](references/COMMITS.md).\n",
    "references/COMMITS.md": "# Commits\n\nOne change per commit; the message says why.\n",
  },
};

/** Environment variable holding a state key ring (`id:base64secret,...`); without it the keys are per process. */
export const STATE_KEYS_ENV = "CONFORMANCE_STATE_KEYS";

/**
 * The fixture app; its tasks live in the store TASK_STORE names. requestState is sealed with the key ring from CONFORMANCE_STATE_KEYS when it is
 * set (several instances then accept each other's state), else with a process-lifetime key.
 */
export function createConformanceApp(overrides: Partial<McpAppOptions> = {}): McpApp {
  const state: StateOptions = process.env[STATE_KEYS_ENV] ? { keysFromEnv: STATE_KEYS_ENV } : { ephemeral: true };
  return McpApp.create({
    name: "roundtrip-mcp-conformance",
    version: "0.1.0",
    title: "roundtrip-mcp conformance fixtures",
    components: CONFORMANCE_COMPONENTS,
    state,
    listCache: { ttlMs: 60_000, cacheScope: "public" },
    features: [
      tasks({ store: conformanceTaskStore() }),
      // SEP-2640: the skills folder beside this file and one skill from code.
      skills({ folder: sampleFolder(__dirname, "skills"), skills: [GIT_WORKFLOW_SKILL] }),
    ],
    // 2025 sessions poll (SEP-1699): a call's stream open past this is closed and resumed by the client.
    sessions: { pollAfterMs: POLL_AFTER_MS, retryMs: 100 },
    ...overrides,
  });
}
