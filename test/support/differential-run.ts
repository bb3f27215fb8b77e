// Runs the fast lane's differential corpus (hand-written and generated) against the three fixture
// apps, over HTTP (two listeners of one app) and stdio (two children), and counts the outcome.
// Decorator metadata first: src/server/mcp-app (for the lane counts) loads tsyringe, which needs it.
import "reflect-metadata";
import type { McpApp } from "../../src/index";
import { fastLaneCountsOf } from "../../src/server/fast-lane-counts";
import { SilentLogger } from "../../src/testing/index";
import { createFeatureApp } from "../e2e/fixtures/feature-app";
import { createInteractiveApp } from "../e2e/fixtures/interactive-app";
import { createTaskApp } from "../e2e/fixtures/task-app";
import { HttpPair, StdioPair, type Compared } from "./differential";
import { envelope, featureCorpus, generatedCases, interactiveCorpus, tasksCorpus, type Fixture, type WireCase } from "./differential-cases";

export interface DifferentialOptions {
  /** Generated cases per fixture over HTTP, and over stdio. */
  httpGenerated: number;
  stdioGenerated: number;
  seed: number;
  /** Run the hand-written corpus over stdio too (slower: two child processes per fixture). */
  stdio: boolean;
}

export interface DifferentialReport {
  cases: number;
  byteEqual: number;
  failures: string[];
  byTransport: Record<string, number>;
  /** HTTP cases the lane took (answered itself, or dispatched and left to the SDK path to encode). */
  laneTaken: number;
  laneSettled: number;
}

const FIXTURES: Record<Fixture, { create: () => McpApp; corpus: () => WireCase[] }> = {
  feature: { create: () => createFeatureApp({ logger: new SilentLogger() }), corpus: featureCorpus },
  interactive: { create: () => createInteractiveApp({ logger: new SilentLogger() }), corpus: interactiveCorpus },
  tasks: { create: () => createTaskApp({ logger: new SilentLogger() }), corpus: tasksCorpus },
};

function sentinel(id: string): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: { _meta: envelope() } });
}

/** A stdio line for a case: its body as JSON (the HTTP-only parts, headers and verbs, do not apply). */
function lineOf(c: WireCase): string | undefined {
  if (c.method !== undefined && c.method !== "POST") return undefined;
  const text = typeof c.body === "string" ? c.body : JSON.stringify(c.body);
  return text.length === 0 || text.length > 1_000_000 || text.includes("\n") ? undefined : text;
}

export async function runDifferential(options: DifferentialOptions): Promise<DifferentialReport> {
  const report: DifferentialReport = { cases: 0, byteEqual: 0, failures: [], byTransport: {}, laneTaken: 0, laneSettled: 0 };
  const record = (transport: string, c: WireCase, outcome: Compared) => {
    report.cases++;
    report.byTransport[transport] = (report.byTransport[transport] ?? 0) + 1;
    if (outcome.byteEqual) report.byteEqual++;
    if (outcome.difference !== undefined)
      report.failures.push(
        `[${transport}] ${c.label}: ${JSON.stringify(c.body)?.slice(0, 300)} headers ${JSON.stringify(c.headers)}\n  ${outcome.difference}`,
      );
  };
  for (const [fixture, { create, corpus }] of Object.entries(FIXTURES) as [Fixture, (typeof FIXTURES)[Fixture]][]) {
    const hand = corpus();
    const generated = generatedCases(fixture, Math.max(options.httpGenerated, options.stdioGenerated), options.seed);
    const app = create();
    const pair = await HttpPair.start(app);
    try {
      for (const c of [...hand, ...generated.slice(0, options.httpGenerated)]) record(`http ${fixture}`, c, await pair.compare(c));
    } finally {
      const counts = fastLaneCountsOf(app);
      report.laneTaken += counts.taken;
      report.laneSettled += counts.settled;
      await pair.close();
      await app.close();
    }
    const lines = [...(options.stdio ? hand : []), ...generated.slice(0, options.stdioGenerated)].filter((c) => lineOf(c) !== undefined);
    if (lines.length === 0) continue;
    const stdio = await StdioPair.start(fixture, sentinel, sentinel("opening"));
    try {
      for (const c of lines) record(`stdio ${fixture}`, c, await stdio.compare(lineOf(c)!));
    } finally {
      await stdio.close();
    }
  }
  return report;
}
