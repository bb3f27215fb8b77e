// Pins the skills feature (SEP-2640) over the real boundaries:
// - HTTP (listen() on 127.0.0.1, port 0) with the official client's SkillsClient: every skill
//   listed, each file read and verified (size, digest, SKILL.md frontmatter) by the client itself,
//   directories walked; the exact wire JSON of skills/get and of a SKILL.md read, and -32602 for an
//   unknown skill, a non-directory and a directory read as a file;
// - stdio (a child process serving the fixture): the same catalog, read and verified by SkillsClient;
// - in-process: scopes filter skills/list and resources/list, and refuse skills/get, directory
//   reads and file reads of a skill the caller may not see (-32003 naming the scopes); app
//   middleware runs in front of skill reads;
// - over HTTP with OAuth (the kit's as(principal, { scopes })): those refusals are 403 with the
//   insufficient_scope challenge naming the skill's scopes, before anything is dispatched;
// - paging: skills/list and resources/directory/read pages walked by the testing kit's listAll;
// - a 2025-era client (SDK 1.32.2) over a 2025-11-25 session: the extension in the initialize
//   answer, skills/list and skills/get without the 2026 caching fields;
// - reload(): a changed file is refused until reload() (never served unverified), then served;
//   an added skill is listed, and resources/list_changed reaches an open subscriptions/listen stream.
import "reflect-metadata";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { z } from "zod";
import { McpApp, skills, type Middleware, type SkillsOptions } from "../../src/index";
import { createHttpTestClient, createTestClient, MemoryLogger } from "../../src/testing/index";
import { fixtureCommand } from "../support/fixture-server";
import { openListen } from "../support/listen-stream";
import { rpc } from "../support/raw-http";

const SAMPLE = path.join(__dirname, "../../sample/conformance/skills");
const folders: string[] = [];
afterAll(() => folders.forEach((f) => fs.rmSync(f, { recursive: true, force: true })));

function copyOfSample(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "skills-e2e-"));
  folders.push(root);
  fs.cpSync(SAMPLE, root, { recursive: true });
  return root;
}

const manifest = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill, for tests.\n---\n\n# ${name}\n`;
const appWith = (options: SkillsOptions, extra: Partial<Parameters<typeof McpApp.create>[0]> = {}) =>
  McpApp.create({ components: [], state: { ephemeral: true }, logger: new MemoryLogger(), features: [skills(options)], ...extra });
const NO_NAME = { "mcp-name": undefined };

describe("skills over HTTP", () => {
  let app: McpApp;
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    app = appWith({ folder: SAMPLE }, { listCache: { ttlMs: 60_000, cacheScope: "public" }, name: "skills-e2e", version: "1.0.0" });
    const listener = await app.listen();
    url = listener.url;
    close = () => listener.close();
  });
  afterAll(async () => (await close(), await app.close()));

  it("serves every skill the official SkillsClient lists, reads and verifies", async () => {
    const client = new Client({ name: "skills-e2e", version: "1.0.0" });
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const skillsClient = new SkillsClient(client);
      expect([skillsClient.supported, skillsClient.directoryRead]).toEqual([true, true]);
      const listing = await skillsClient.list();
      expect(listing.skills.map((s) => s.uri)).toEqual(["skill://acme/billing/refunds/SKILL.md", "skill://pdf-processing/SKILL.md"]);
      expect(listing.invalid).toEqual([]);
      let verified = 0;
      for (const skill of listing.skills) {
        const manifestFile = await skillsClient.read(skill);
        expect(manifestFile.frontmatter).toEqual(skill.frontmatter);
        for (const resource of skill.resources === "dynamic" ? [] : skill.resources) {
          const file = await skillsClient.read(skill, resource.uri);
          expect(file.verified).toBe(true);
          verified++;
        }
      }
      expect(verified).toBe(6);
      const templates = await skillsClient.readDirectory("skill://acme/billing/refunds/templates");
      expect(templates.resources.map((r) => [r.name, r.mimeType])).toEqual([
        ["email.md", "text/markdown"],
        ["regional", "inode/directory"],
      ]);
    } finally {
      await client.close();
    }
  });

  it("answers skills/list, skills/get and a SKILL.md read with the exact wire JSON", async () => {
    const list = await rpc(url, "skills/list", { _meta: meta() }, { id: 6, headers: NO_NAME });
    expect(Object.keys(list.body!.result as object)).toEqual(["resultType", "skills", "ttlMs", "cacheScope", "_meta"]);
    expect(list.body!.result).toMatchObject({ resultType: "complete", ttlMs: 60_000, cacheScope: "public" });
    const text = fs.readFileSync(path.join(SAMPLE, "pdf-processing/SKILL.md"), "utf8");
    const got = await rpc(url, "skills/get", { _meta: meta(), uri: "skill://pdf-processing/SKILL.md" }, { id: 7, headers: NO_NAME });
    expect(got.status).toBe(200);
    expect(Object.keys(got.body!.result as object)).toEqual(["resultType", "skill", "ttlMs", "cacheScope", "_meta"]);
    const result = got.body!.result as { skill: { frontmatter: unknown; resources: { uri: string; size: number }[] } };
    expect(result.skill.frontmatter).toEqual({
      name: "pdf-processing",
      description: "Extract text and tables from PDF documents, fill PDF forms and assemble several PDFs into one.",
      license: "MIT",
      metadata: { version: "2.1.0" },
    });
    expect(result.skill.resources.find((r) => r.uri === "skill://pdf-processing/SKILL.md")!.size).toBe(Buffer.byteLength(text));
    const read = await rpc(url, "resources/read", { _meta: meta(), uri: "skill://pdf-processing/SKILL.md" }, { id: 8 });
    expect(read.body).toEqual({
      result: {
        resultType: "complete",
        contents: [{ uri: "skill://pdf-processing/SKILL.md", mimeType: "text/markdown", text }],
        ttlMs: 60_000,
        cacheScope: "public",
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "skills-e2e", version: "1.0.0" } },
      },
      jsonrpc: "2.0",
      id: 8,
    });
  });

  it("answers -32602 for an unknown skill, a file read as a directory and a directory read as a file", async () => {
    const unknown = await rpc(url, "skills/get", { _meta: meta(), uri: "skill://nope/SKILL.md" }, { id: 1, headers: NO_NAME });
    expect(unknown.body!.error).toEqual({
      code: -32602,
      message: "No skill is served at skill://nope/SKILL.md",
      data: { uri: "skill://nope/SKILL.md" },
    });
    const notDir = await rpc(
      url,
      "resources/directory/read",
      { _meta: meta(), uri: "skill://pdf-processing/SKILL.md" },
      { headers: NO_NAME },
    );
    expect(notDir.body!.error).toMatchObject({
      code: -32602,
      message: "skill://pdf-processing/SKILL.md is not a directory resource this server serves",
    });
    const dirAsFile = await rpc(url, "resources/read", { _meta: meta(), uri: "skill://pdf-processing/references" });
    expect(dirAsFile.body!.error).toMatchObject({ code: -32602, message: expect.stringContaining("is a directory of a skill") });
  });
});

describe("skills over stdio", () => {
  it("serves the same catalog to the official SkillsClient from a child process", async () => {
    const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
    const fixture = fixtureCommand("skills");
    const client = new Client({ name: "skills-stdio", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: fixture.command,
        args: fixture.args,
        env: { ...process.env, ...fixture.env } as Record<string, string>,
      }),
    );
    try {
      const skillsClient = new SkillsClient(client);
      const listing = await skillsClient.list();
      expect(listing.skills.map((s) => s.uri)).toEqual([
        "skill://acme/billing/refunds/SKILL.md",
        "skill://git-workflow/SKILL.md",
        "skill://pdf-processing/SKILL.md",
      ]);
      const gitWorkflow = listing.skills[1]!;
      expect((await skillsClient.read(gitWorkflow, "references/COMMITS.md")).text).toContain("One change per commit");
      expect((await skillsClient.read(listing.skills[2]!, "scripts/extract.py")).verified).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe("skills in-process", () => {
  it("filters lists by scopes and refuses what the caller may not see", async () => {
    const seen: string[] = [];
    const audit: Middleware = (_ctx, next, component) => (seen.push(component.name), next());
    const app = appWith(
      { folder: SAMPLE, skills: [{ path: "ops/deploy", files: { "SKILL.md": manifest("deploy") }, scopes: ["ops"] }] },
      { middleware: [audit] },
    );
    const client = await createTestClient(app);
    try {
      const names = async (c: typeof client, method: string, key: string) =>
        (((await c.request(method)).result as Record<string, { uri: string }[]>)[key] ?? []).map((e) => e.uri);
      const outsider = client.as("eve", { scopes: [] });
      expect(await names(outsider, "skills/list", "skills")).toEqual([
        "skill://acme/billing/refunds/SKILL.md",
        "skill://pdf-processing/SKILL.md",
      ]);
      expect(await names(client.as("op", { scopes: ["ops"] }), "skills/list", "skills")).toContain("skill://ops/deploy/SKILL.md");
      expect(await names(outsider, "resources/list", "resources")).not.toContain("skill://ops/deploy/SKILL.md");
      for (const [method, params] of [
        ["skills/get", { uri: "skill://ops/deploy/SKILL.md" }],
        ["resources/read", { uri: "skill://ops/deploy/SKILL.md" }],
        ["resources/directory/read", { uri: "skill://ops/deploy" }],
      ] as const) {
        const refused = await outsider.raw(method, params);
        expect(refused.error).toMatchObject({ code: -32003, data: { requiredScopes: ["ops"] } });
      }
      const page = (await client.as("op", { scopes: ["ops"] }).request("skills/get", { uri: "skill://ops/deploy/SKILL.md" })).result;
      expect(page).toMatchObject({ cacheScope: "private" });
      await client.readResource("skill://pdf-processing/references/FORMS.md");
      expect(seen).toEqual(["skill://pdf-processing/{+file}"]);
    } finally {
      await client.close();
    }
  });

  it("pages skills/list and resources/directory/read, walked by the kit's listAll", async () => {
    const many = Array.from({ length: 5 }, (_, i) => ({
      path: `s${i}`,
      files: { "SKILL.md": manifest(`s${i}`), "a.md": "a", "b.md": "b" },
    }));
    const client = await createTestClient(appWith({ skills: many }, { listPageSize: 2 }));
    try {
      const listed = await client.listAll("skills/list");
      expect(listed.pages.map((p) => (p.skills as unknown[]).length)).toEqual([2, 2, 1]);
      expect(listed.items.map((s) => s.uri)).toEqual(many.map((s) => `skill://${s.path}/SKILL.md`));
      const children = await client.listAll("resources/directory/read", { params: { uri: "skill://s3" } });
      expect(children.pages).toHaveLength(2);
      expect(children.items.map((c) => c.name)).toEqual(["SKILL.md", "a.md", "b.md"]);
    } finally {
      await client.close();
    }
  });
});

describe("skills over HTTP with OAuth scopes", () => {
  it("answers a scoped skill's get, directory read and file read 403 with the scope challenge, and serves them with the scope", async () => {
    const app = appWith({
      skills: [{ path: "ops/deploy", files: { "SKILL.md": manifest("deploy"), "steps/one.md": "1" }, scopes: ["ops"] }],
    });
    const client = await createHttpTestClient(app);
    try {
      const outsider = client.as("eve", { scopes: ["other"] });
      for (const [method, params] of [
        ["skills/get", { uri: "skill://ops/deploy/SKILL.md" }],
        ["resources/directory/read", { uri: "skill://ops/deploy/steps" }],
        ["resources/read", { uri: "skill://ops/deploy/steps/one.md" }],
      ] as const) {
        const round = await outsider.exchange(method, { ...params, _meta: outsider.meta() });
        expect([method, round.http?.status]).toEqual([method, 403]);
        expect(round.http?.headers["www-authenticate"]).toMatch(/error="insufficient_scope", .*scope="ops"$/);
      }
      expect(((await outsider.request("skills/list")).result as { skills: unknown[] }).skills).toEqual([]);
      const op = client.as("op", { scopes: ["ops"] });
      expect((await op.request("skills/get", { uri: "skill://ops/deploy/SKILL.md" })).result).toMatchObject({ cacheScope: "private" });
      expect((await op.readResource("skill://ops/deploy/steps/one.md")).result).toMatchObject({ contents: [{ text: "1" }] });
    } finally {
      await client.close();
      await app.close();
    }
  });
});

describe("skills for a 2025-era client", () => {
  it("declares the extension in the initialize answer and serves skills/list and skills/get in the session", async () => {
    const app = appWith({ folder: SAMPLE });
    const listener = await app.listen();
    const client = new LegacyClient({ name: "legacy", version: "1.0.0" });
    await client.connect(new LegacyTransport(new URL(listener.url)));
    try {
      expect(client.getServerCapabilities()?.extensions).toEqual({ "io.modelcontextprotocol/skills": { directoryRead: true } });
      const list = await client.request({ method: "skills/list", params: {} }, z.object({ skills: z.array(z.any()) }).passthrough());
      expect(list.skills).toHaveLength(2);
      expect(list).not.toHaveProperty("ttlMs");
      const one = await client.request({ method: "skills/get", params: { uri: "skill://pdf-processing/SKILL.md" } }, z.any());
      expect(one).toMatchObject({ skill: { uri: "skill://pdf-processing/SKILL.md" } });
      expect(one).not.toHaveProperty("cacheScope");
    } finally {
      await client.close();
      await listener.close();
      await app.close();
    }
  });
});

describe("reload()", () => {
  it("refuses a file changed on disk until reload(), then serves the new catalog and tells listen streams", async () => {
    const folder = copyOfSample();
    const feature = skills({ folder });
    const app = McpApp.create({ components: [], state: { ephemeral: true }, logger: new MemoryLogger(), features: [feature] });
    const listener = await app.listen();
    const stream = await openListen(listener.url, "listen-1", { resourcesListChanged: true });
    try {
      expect((await stream.next()).method).toBe("notifications/subscriptions/acknowledged");
      const forms = path.join(folder, "pdf-processing/references/FORMS.md");
      fs.appendFileSync(forms, "\nOne more line.\n");
      const stale = await rpc(listener.url, "resources/read", { _meta: meta(), uri: "skill://pdf-processing/references/FORMS.md" });
      expect(stale.body!.error).toMatchObject({ code: -32603 });
      fs.mkdirSync(path.join(folder, "fresh"));
      fs.writeFileSync(path.join(folder, "fresh/SKILL.md"), manifest("fresh"));
      expect(await feature.reload()).toEqual({
        added: ["skill://fresh/SKILL.md"],
        removed: [],
        changed: ["skill://pdf-processing/SKILL.md"],
      });
      expect(await stream.next()).toMatchObject({
        method: "notifications/resources/list_changed",
        params: { _meta: { "io.modelcontextprotocol/subscriptionId": "listen-1" } },
      });
      const fresh = await rpc(listener.url, "resources/read", { _meta: meta(), uri: "skill://pdf-processing/references/FORMS.md" });
      expect((fresh.body!.result as { contents: { text: string }[] }).contents[0]!.text).toContain("One more line.");
      fs.writeFileSync(path.join(folder, "fresh/SKILL.md"), "---\nname: stale\n---\n");
      await expect(feature.reload()).rejects.toThrow(`${path.join(folder, "fresh/SKILL.md")}: frontmatter name "stale" must equal`);
      const still = await rpc(listener.url, "skills/get", { _meta: meta(), uri: "skill://fresh/SKILL.md" }, { headers: NO_NAME });
      expect(still.body!.result).toMatchObject({ skill: { frontmatter: { name: "fresh" } } });
    } finally {
      await stream.close();
      await listener.close();
      await app.close();
    }
  });
});

function meta() {
  return { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
}
