/*
 * skills/list (not a test; `npm run bench:skills`, which builds first): the benchmark's app server
 * (test/bench/servers/app-server.ts, compiled, in a child process of its own) with the skills
 * feature serving 1,000 skills of three files each (BENCH_SKILLS), `skills/list` walked page by
 * page (100 skills a page, the app's default) over HTTP (listen(), keep-alive) from this process:
 * the first page (no cursor) and the pages after it (each opens its cursor and seals the next),
 * BENCH_CONCURRENCY walkers at once. Prints the server's CPU per page (user + system of its process,
 * from /proc, over the whole run of each kind) beside issue 39's target, under 1 ms per page, each
 * page's size, and as the reference measured the same way in the same run, the server's CPU per
 * plain `tools/call`. Every page is checked: 100 skills in URI order, a nextCursor on all but the last.
 *
 * Env: BENCH_WALKS (whole walks per walker and trial, default 20), BENCH_TRIALS (default 5),
 * BENCH_CONCURRENCY (walkers at once, default 8).
 */
import http from "node:http";
import { startServer, stopAllServers } from "./bench-process";
import { cpuPerRequest, printPages } from "./page-bench";
import { fmt } from "./bench-load";
import { postRpc } from "./bench-rpc";

const SKILLS = 1000;
const PAGE = 100;
const WALKS = Number(process.env.BENCH_WALKS ?? 20);
const TRIALS = Number(process.env.BENCH_TRIALS ?? 5);
const TARGET_MS = 1;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

const post = (url: string, method: string, params: Record<string, unknown>, name?: string) => postRpc(agent, url, method, params, name);

interface Page {
  skills: { uri: string }[];
  nextCursor?: string;
}

function pageOf(text: string, index: number): Page {
  const result = (JSON.parse(text) as { result?: Page }).result;
  if (!result || result.skills.length !== PAGE) throw new Error(`page ${index + 1}: ${text.slice(0, 300)}`);
  if ((result.nextCursor === undefined) !== (index === SKILLS / PAGE - 1)) throw new Error(`page ${index + 1}: nextCursor wrong`);
  for (let i = 1; i < result.skills.length; i++)
    if (!(result.skills[i - 1]!.uri < result.skills[i]!.uri)) throw new Error(`page ${index + 1}: not in URI order`);
  return result;
}

const listPage = (url: string, cursor: string | undefined) => post(url, "skills/list", cursor === undefined ? {} : { cursor });

async function main(): Promise<void> {
  const server = await startServer({ label: "app (1,000 skills)", name: "app-server", env: { BENCH_SKILLS: String(SKILLS) } });
  const pid = server.child.pid;
  const sizes: number[] = [];
  const walk = async (record = false) => {
    let cursor: string | undefined;
    for (let i = 0; i < SKILLS / PAGE; i++) {
      const text = await listPage(server.url, cursor);
      if (record) sizes.push(Buffer.byteLength(text));
      cursor = pageOf(text, i).nextCursor;
    }
  };
  for (let w = 0; w < 20; w++) await walk(w === 0);
  const perRequest = (requests: number, run: () => Promise<void>) => cpuPerRequest(pid, CONCURRENCY, WALKS, requests, run);
  const first: number[] = [];
  const later: number[] = [];
  const calls: number[] = [];
  for (let t = 0; t < TRIALS; t++) {
    calls.push(
      await perRequest(
        1,
        async () => void JSON.parse(await post(server.url, "tools/call", { name: "add", arguments: { a: 1, b: 2 } }, "add")),
      ),
    );
    const firstMs = await perRequest(1, async () => void pageOf(await listPage(server.url, undefined), 0));
    const walkMs = await perRequest(SKILLS / PAGE, () => walk());
    first.push(firstMs);
    later.push((walkMs * (SKILLS / PAGE) - firstMs) / (SKILLS / PAGE - 1));
  }
  printPages(
    `skills/list of ${fmt(SKILLS)} skills (3 files each) in pages of ${PAGE}, ${TRIALS} trials of ${WALKS} walks by each of ${CONCURRENCY} walkers (server CPU per request, median, range)`,
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
