// The preferences sample's MCP Apps view in a real browser, through the official host bridge:
// headless Chromium (Debian's package, driven by playwright-core) loads a test host page that
// connects the official client (@modelcontextprotocol/client 2.4.0) to the sample over HTTP (the
// built main-http entry in a child process) and renders the view with
// @modelcontextprotocol/ext-apps/app-bridge in a sandboxed iframe under the CSP built from the
// view's `_meta.ui`. Pins, read from the view's DOM:
// - the view receives the tool's input and result (show_theme) and shows them;
// - it calls a server tool through the bridge (style_options, app-only) and shows the answer, and
//   switches style through show_theme, whose text says the caller renders views;
// - it calls an @Elicit tool (choose_preferences) through the bridge: the host's client answers
//   both input_required rounds (colour, then a style offered for it) and the view shows the result;
// - a fetch from the view to an origin outside connectDomains is blocked (a connect-src CSP
//   violation, and the origin sees no request), while the host page itself reaches that origin;
// - a screenshot of the page is written to .tmp/browser/theme-preview.png.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Frame, type Page } from "playwright-core";
import { bundlePage } from "../../sample/bundle-page";

const ROOT = path.resolve(__dirname, "../..");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const MAIN = path.join(ROOT, "dist/sample/preferences/main-http.js");
export const SCREENSHOT = path.join(ROOT, ".tmp/browser/theme-preview.png");
// Headless in a closed network: without these Chromium stalls on its own background traffic.
const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let sample: ChildProcess;
let sampleUrl: URL;
let site: http.Server;
let siteUrl: string;
let probe: http.Server;
let probeOrigin: string;
let probeHits = 0;
let userDataDir: string;
let browser: BrowserContext;
let page: Page;

/** Starts the built sample on a free port and resolves its URL (its first line on stdout). */
function startSample(): Promise<URL> {
  sample = spawn(process.execPath, [MAIN], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    sample.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve(new URL(match[1]!));
    });
    sample.once("exit", (code) => reject(new Error(`the sample exited (${code}) before printing its URL: ${out}`)));
  });
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

/** The host page, and /mcp passed through to the sample: the browser talks to one origin, as a host's own backend would. */
async function startSite(hostHtml: string): Promise<void> {
  site = http.createServer((req, res) => {
    if (req.url === "/host.html") return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(hostHtml);
    if (!req.url?.startsWith("/mcp")) return void res.writeHead(404).end();
    const headers = { ...req.headers, host: sampleUrl.host };
    delete headers.origin;
    const upstream = http.request(new URL(req.url, sampleUrl), { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  siteUrl = await listen(site);
}

/** An origin the view does not declare: counts what reaches it; open to any origin (CORS), so only a CSP can stop a fetch. */
async function startProbe(): Promise<void> {
  probe = http.createServer((_req, res) => {
    probeHits++;
    res.writeHead(200, { "access-control-allow-origin": "*", "content-type": "text/plain" }).end("reached");
  });
  probeOrigin = await listen(probe);
}

/** The view's frame, once the host has put it in the page. */
async function viewFrame(): Promise<Frame> {
  const element = await page.waitForSelector("#view-frame");
  const frame = await element.contentFrame();
  if (frame === null) throw new Error("the view's iframe has no frame");
  return frame;
}

async function hostLog(): Promise<{ event: string; detail?: unknown }[]> {
  return page.evaluate(() => (window as unknown as { hostLog: { event: string; detail?: unknown }[] }).hostLog);
}

beforeAll(async () => {
  sampleUrl = await startSample();
  const hostHtml = await bundlePage(path.join(__dirname, "host/host-page.html"), path.join(__dirname, "host/host-page.ts"));
  await startSite(hostHtml);
  await startProbe();
  userDataDir = mkdtempSync(path.join(tmpdir(), "roundtrip-chromium-"));
  browser = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  page = browser.pages()[0] ?? (await browser.newPage());
  await page.goto(`${siteUrl}/host.html`);
  await page.evaluate(() =>
    (window as unknown as { runTool: (e: string, n: string, a: object) => Promise<void> }).runTool("/mcp", "show_theme", {
      color: "red",
      style: "crimson",
    }),
  );
});

afterAll(async () => {
  await browser?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  await new Promise((resolve) => site?.close(resolve));
  await new Promise((resolve) => probe?.close(resolve));
  if (sample && sample.exitCode === null) {
    const exited = new Promise((resolve) => sample.once("exit", resolve));
    sample.kill("SIGTERM");
    await exited;
  }
});

describe("the theme preview in Chromium, through the official host bridge", () => {
  it("is rendered under the CSP built from its metadata, in a sandboxed iframe", async () => {
    const log = await hostLog();
    const view = log.find((entry) => entry.event === "view")?.detail as { uri: string; policy: string; prefersBorder: boolean };
    expect(view.uri).toBe("ui://preferences/theme-preview");
    expect(view.prefersBorder).toBe(true);
    // The view declares no domains: the policy is the restrictive one, connect-src its own origin only.
    expect(view.policy).toContain("connect-src 'self';");
    expect(view.policy).toContain("default-src 'none'");
    expect(await page.getAttribute("#view-frame", "sandbox")).toBe("allow-scripts");
  });

  it("shows the tool's input and result", async () => {
    const frame = await viewFrame();
    await frame.waitForFunction(() => document.getElementById("tool-result")?.textContent === "red / crimson");
    expect(await frame.textContent("#tool-input")).toBe("color=red, style=crimson");
    expect(await frame.textContent("#swatch-accent")).toBe("accent #dc143c");
    expect(await frame.textContent("#title")).toBe("Theme red / crimson");
  });

  it("calls an app-only server tool through the bridge and shows its answer", async () => {
    const frame = await viewFrame();
    await frame.waitForFunction(() => document.querySelectorAll("#styles button").length === 3);
    expect(await frame.$$eval("#styles button", (buttons) => buttons.map((b) => b.textContent))).toEqual(["crimson", "coral", "brick"]);
    expect(await frame.textContent("#status")).toBe("Styles of red: crimson, coral, brick");
    expect(
      (await hostLog()).filter((entry) => entry.event === "view-call").map((entry) => (entry.detail as { name: string }).name),
    ).toContain("style_options");
  });

  it("switches style through show_theme, whose text knows the caller renders views", async () => {
    const frame = await viewFrame();
    await frame.click('#styles button[data-style="coral"]');
    await frame.waitForFunction(() => document.getElementById("tool-result")?.textContent === "red / coral");
    expect(await frame.textContent("#swatch-accent")).toBe("accent #ff7f50");
    expect(await frame.textContent("#status")).toBe(
      "Theme red / coral: accent #ff7f50 on background #ffece5, text #1a1a1a on the accent. Shown in the theme preview.",
    );
  });

  it("calls an @Elicit tool through the bridge: the host's client answers its rounds and the view shows the result", async () => {
    await page.evaluate(() => Object.assign(window, { hostAnswers: { color: "green" } }));
    const frame = await viewFrame();
    await frame.click("#again");
    await frame.waitForFunction(() => document.getElementById("status")?.textContent === "Chosen: green / forest");
    expect(await frame.textContent("#tool-result")).toBe("green / forest");
    expect(await frame.$$eval("#styles button", (buttons) => buttons.map((b) => b.textContent))).toEqual(["forest", "mint", "olive"]);
    const asked = (await hostLog()).filter((entry) => entry.event === "elicitation").map((entry) => entry.detail);
    expect(asked).toEqual([
      { message: "Which colour do you prefer?", content: { color: "green" } },
      { message: "Which green style?", content: { style: "forest" } },
    ]);
  });

  it("blocks a fetch to an origin outside connectDomains, which the host page itself reaches", async () => {
    const frame = await viewFrame();
    const outcome = await frame.evaluate(async (target) => {
      const violation = new Promise<string>((resolve) =>
        document.addEventListener("securitypolicyviolation", (event) => resolve(event.effectiveDirective), { once: true }),
      );
      const fetched = fetch(target).then(
        async (response) => response.text(),
        (error: Error) => `refused: ${error.name}`,
      );
      return { fetched: await fetched, violated: await violation };
    }, `${probeOrigin}/from-view`);
    expect(outcome).toEqual({ fetched: "refused: TypeError", violated: "connect-src" });
    expect(probeHits).toBe(0);
    // The same origin, from the host page (no CSP): reachable, so the view's refusal is its policy's.
    expect(await page.evaluate(async (target) => (await fetch(target)).text(), `${probeOrigin}/from-host`)).toBe("reached");
    expect(probeHits).toBe(1);
  });

  it("writes a screenshot of the host with its view", async () => {
    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    const image = await page.screenshot({ path: SCREENSHOT, fullPage: true });
    // A PNG of the whole page, not an empty one.
    expect(image.subarray(1, 4).toString()).toBe("PNG");
    expect(image.length).toBeGreaterThan(10_000);
  });
});
