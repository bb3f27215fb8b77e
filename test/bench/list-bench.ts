/*
 * Paged lists (not a test; `npm run bench:lists`, which builds first): the benchmark's app server
 * (test/bench/servers/app-server.ts, compiled, in a child process of its own) with 1,000 tools,
 * `tools/list` walked page by page over HTTP (listen(), keep-alive, one request at a time) from
 * this process: the first page (no cursor) and the pages after it (each opens the cursor it is
 * given and seals the next), BENCH_CONCURRENCY walkers at once. Prints the server's CPU per page
 * (user + system of its process, from /proc, over the whole run of each kind) beside the target of
 * issue 22, under 1 ms per page, and each page's size; and, as the reference measured the same way
 * in the same run, the server's CPU per plain `tools/call` (the transport's own cost per request).
 * Every page is checked: 100 tools in order, a nextCursor on all but the last.
 *
 * Env: BENCH_WALKS (whole walks of the list per walker and trial, default 50), BENCH_TRIALS
 * (default 5), BENCH_CONCURRENCY (walkers at once, default 8).
 */
import http from "node:http";
import { startServer, stopAllServers } from "./bench-process";
import { cpuPerRequest, printPages } from "./page-bench";
import { fmt } from "./bench-load";
import { postRpc } from "./bench-rpc";

const TOOLS = 1000;
const PAGE = 100;
const WALKS = Number(process.env.BENCH_WALKS ?? 50);
const TRIALS = Number(process.env.BENCH_TRIALS ?? 5);
const TARGET_MS = 1;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function post(url: string, cursor: string | undefined, call = false): Promise<string> {
  if (call) return postRpc(agent, url, "tools/call", { name: "add", arguments: { a: 1, b: 2 } }, "add");
  return postRpc(agent, url, "tools/list", cursor === undefined ? {} : { cursor });
}

interface Page {
  tools: { name: string }[];
  nextCursor?: string;
}

function pageOf(text: string, index: number): Page {
  const result = (JSON.parse(text) as { result?: Page }).result;
  const expected = Math.min(PAGE, TOOLS - index * PAGE);
  if (!result || result.tools.length !== expected) throw new Error(`page ${index + 1}: ${text.slice(0, 300)}`);
  if ((result.nextCursor === undefined) !== (index === TOOLS / PAGE - 1)) throw new Error(`page ${index + 1}: nextCursor wrong`);
  return result;
}

async function main(): Promise<void> {
  const server = await startServer({ label: "app (1,000 tools)", name: "app-server", env: { BENCH_COMPONENTS: String(TOOLS) } });
  const pid = server.child.pid;
  const sizes: number[] = [];
  // Warm up: a few walks, every page checked.
  for (let w = 0; w < 20; w++) {
    let cursor: string | undefined;
    for (let i = 0; i < TOOLS / PAGE; i++) {
      const text = await post(server.url, cursor);
      if (w === 0) sizes.push(Buffer.byteLength(text));
      cursor = pageOf(text, i).nextCursor;
    }
  }
  const first: number[] = [];
  const later: number[] = [];
  const calls: number[] = [];
  const perRequest = (requests: number, run: () => Promise<void>) => cpuPerRequest(pid, CONCURRENCY, WALKS, requests, run);
  const walk = async () => {
    let cursor: string | undefined;
    for (let i = 0; i < TOOLS / PAGE; i++) cursor = pageOf(await post(server.url, cursor), i).nextCursor;
  };
  for (let t = 0; t < TRIALS; t++) {
    calls.push(await perRequest(1, async () => void JSON.parse(await post(server.url, undefined, true)).result.structuredContent.sum));
    const firstMs = await perRequest(1, async () => void pageOf(await post(server.url, undefined), 0));
    const walkMs = await perRequest(TOOLS / PAGE, walk);
    first.push(firstMs);
    // A walk's pages after the first: the walk's CPU less its first page.
    later.push((walkMs * (TOOLS / PAGE) - firstMs) / (TOOLS / PAGE - 1));
  }
  printPages(
    `tools/list of ${fmt(TOOLS)} tools in pages of ${PAGE}, ${TRIALS} trials of ${WALKS} walks by each of ${CONCURRENCY} walkers (server CPU per request, median, range)`,
    { first, later, calls, sizes, targetMs: TARGET_MS },
  );
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    agent.destroy();
    return stopAllServers();
  });
