// Pins each 2025 revision's shape, as the official 2025-era client (SDK 1.32.2's protocol in the
// 2.4.0 client's legacy mode) negotiates it, over in-process, stdio and HTTP (a 2025 session):
// - every server message validates against the official schema of the negotiated revision
//   (2025-11-25 or 2025-06-18, test/support/spec), with none of the fields later revisions added:
//   no resultType on any result, no ttlMs / cacheScope on lists and reads; to 2025-06-18 no icons on
//   listed tools, and elicitation/create without mode or elicitationId (both 2025-11-25);
// - a titled single choice reaches a 2025-06-18 client as enum + enumNames, and its answer completes;
// - a tool whose outputSchema's root is not an object is listed wrapped ({ result }) and its result
//   comes wrapped the same way (before, the call failed -32602 on the SDK's 2025 result check);
// - an @Elicit flow completes on both revisions; a URL question re-asked in one flow (Result.reask)
//   reaches a client of either revision that declared elicitation.url whole (mode, url,
//   elicitationId: a 2025-06-18 one too, as Codex 0.171.0 declares it there) with the same
//   elicitationId each time; before, 2025-06-18 got it without mode and elicitationId, neither a
//   form nor a URL question, and Codex refused it;
// - a 2025-06-18 client refused a URL question is told URL questions need 2025-11-25 or later
//   (its revision cannot declare elicitation.url), data.requiredCapabilities unchanged.
import { IsIn } from "class-validator";
import type { ElicitRequest } from "@modelcontextprotocol/client";
import { BOUNDARIES, Boundary, type BoundaryName } from "../support/boundaries";
import { createFeatureApp } from "./fixtures/feature-app";
import { Connections, createInteractiveApp } from "./fixtures/interactive-app";
import { Elicit, McpApp, Result, Tool } from "../../src/index";
import { SilentLogger } from "../../src/testing/index";

class Size {
  @IsIn(["s", "m"]) size!: string;
}

class LegacyShapes {
  @Tool({ description: "Asks a titled single choice" })
  pick_size(
    @Elicit(
      "size",
      {
        type: "object",
        properties: {
          size: {
            type: "string",
            oneOf: [
              { const: "s", title: "Small" },
              { const: "m", title: "Medium" },
            ],
          },
        },
        required: ["size"],
      },
      { message: "Which size?" },
    )
    answer: Size,
  ) {
    return Result.text(`size ${answer.size}`);
  }

  @Tool({ description: "Returns a list", output: { type: "array", items: { type: "string" } } })
  names() {
    return Result.structured(["ada", "grace"]);
  }
}

const REVISIONS = [
  ["2025-11-25", "2025"],
  ["2025-06-18", "2025-06-18"],
] as const;

describe.each(BOUNDARIES)("a 2025-era client over %s", (name: BoundaryName) => {
  describe.each(REVISIONS)("at %s", (revision, era) => {
    const started: { boundary: Boundary; app: McpApp }[] = [];
    const serve = async (app: McpApp, fixture: string) => {
      const boundary = new Boundary(name, app, fixture);
      await boundary.start();
      started.push({ boundary, app });
      return boundary;
    };
    afterAll(async () => {
      for (const { boundary, app } of started.splice(0)) {
        await boundary.stop();
        await app.close();
      }
    });

    it("is answered in its revision's shape: lists, calls, reads, prompts", async () => {
      const boundary = await serve(createFeatureApp(), "feature");
      const { client, tap } = await boundary.connect({ era });
      expect(tap.revision).toBe(revision);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("add");
      // Icons came with 2025-11-25.
      expect(tools.some((t) => "icons" in t)).toBe(revision === "2025-11-25");
      expect(await client.callTool({ name: "add", arguments: { a: 1, b: 2 } })).toMatchObject({ structuredContent: { sum: 3 } });
      await client.listResources();
      await client.listResourceTemplates();
      expect((await client.readResource({ uri: "notes://a/1" })).contents[0]).toMatchObject({ text: "note 1 in a" });
      await client.listPrompts();
      await client.getPrompt({ name: "code_review", arguments: { language: "go" } });
      const results = tap.received.filter((m) => "result" in m).map((m) => (m as { result: Record<string, unknown> }).result);
      expect(results.length).toBeGreaterThanOrEqual(8);
      for (const result of results) for (const key of ["resultType", "ttlMs", "cacheScope"]) expect(result).not.toHaveProperty(key);
      expect(tap.violations).toEqual([]);
    });

    it("completes an @Elicit flow, each question in its revision's shape", async () => {
      const boundary = await serve(createInteractiveApp(), "interactive");
      const { client, tap } = await boundary.connect({ era, capabilities: { elicitation: { form: {} } } });
      const asked: Record<string, unknown>[] = [];
      client.setRequestHandler("elicitation/create", async (request: ElicitRequest) => {
        asked.push(request.params as Record<string, unknown>);
        const message = (request.params as { message: string }).message;
        const content: Record<string, string> = message === "Pick a colour" ? { color: "blue" } : { style: "navy" };
        return { action: "accept" as const, content };
      });
      expect((await client.callTool({ name: "choose_style", arguments: {} })).structuredContent).toEqual({ color: "blue", style: "navy" });
      expect(asked.map((p) => p.message)).toEqual(["Pick a colour", "Which blue?"]);
      for (const params of asked) expect("mode" in params).toBe(revision === "2025-11-25");
      expect(tap.violations).toEqual([]);
    });
  });

  it("sends a 2025-06-18 client a titled single choice as enum + enumNames", async () => {
    if (name === "stdio") return; // an app of this file's own; the shaping is the same code on every transport
    const app = McpApp.create({ components: [LegacyShapes], state: { ephemeral: true }, logger: new SilentLogger() });
    const boundary = new Boundary(name, app, "feature");
    await boundary.start();
    try {
      const { client, tap } = await boundary.connect({ era: "2025-06-18", capabilities: { elicitation: {} } });
      const asked: Record<string, unknown>[] = [];
      client.setRequestHandler("elicitation/create", async (request: ElicitRequest) => {
        asked.push(request.params as Record<string, unknown>);
        return { action: "accept" as const, content: { size: "m" } };
      });
      expect((await client.callTool({ name: "pick_size", arguments: {} })).content).toEqual([{ type: "text", text: "size m" }]);
      // `_meta` is the sender's own (the SDK's shim adds a progress token; a 2025 session's rounds send none).
      expect(asked.map(({ _meta, ...params }) => params)).toEqual([
        {
          message: "Which size?",
          requestedSchema: {
            type: "object",
            properties: { size: { type: "string", enum: ["s", "m"], enumNames: ["Small", "Medium"] } },
            required: ["size"],
          },
        },
      ]);
      expect(tap.violations).toEqual([]);
    } finally {
      await boundary.stop();
      await app.close();
    }
  });

  it.each(REVISIONS)(
    "answers a %s client a tool whose output is not an object as its listed (wrapped) outputSchema says",
    async (_revision, era) => {
      if (name === "stdio") return; // an app of this file's own; the projection is the same code on every transport
      const app = McpApp.create({ components: [LegacyShapes], state: { ephemeral: true }, logger: new SilentLogger() });
      const boundary = new Boundary(name, app, "feature");
      await boundary.start();
      try {
        const { client, tap } = await boundary.connect({ era });
        const listed = (await client.listTools()).tools.find((t) => t.name === "names");
        expect(listed?.outputSchema).toEqual({
          type: "object",
          properties: { result: { type: "array", items: { type: "string" } } },
          required: ["result"],
        });
        const result = await client.callTool({ name: "names", arguments: {} });
        expect(result.structuredContent).toEqual({ result: ["ada", "grace"] });
        expect(result.isError).toBeFalsy();
        expect(tap.violations).toEqual([]);
      } finally {
        await boundary.stop();
        await app.close();
      }
    },
  );

  it.each(REVISIONS)(
    "asks a %s client that declared elicitation.url a re-asked URL question whole, with the same elicitationId",
    async (revision, era) => {
      const app = createInteractiveApp();
      const boundary = new Boundary(name, app, "interactive");
      await boundary.start();
      try {
        // Codex 0.171.0 declares { form, url } at 2025-06-18: it is asked URL questions in their one shape.
        const { client, tap } = await boundary.connect({ era, capabilities: { elicitation: { form: {}, url: {} } } });
        expect(tap.revision).toBe(revision);
        const account = `acct-legacy-${revision}-${name}`;
        const ids: unknown[] = [];
        client.setRequestHandler("elicitation/create", async (request: ElicitRequest) => {
          const { _meta, ...params } = request.params as Record<string, unknown>;
          expect(params).toEqual({
            mode: "url",
            message: "Connect your account",
            url: "https://accounts.example.com/connect",
            elicitationId: expect.any(String),
          });
          ids.push((request.params as { elicitationId?: unknown }).elicitationId);
          // The outside step finishes after the first consent (in this process for in-process and HTTP).
          if (ids.length === 2 && name !== "stdio") Connections.done.add(account);
          if (ids.length === 2 && name === "stdio") await client.callTool({ name: "finish_connection", arguments: { account } });
          return { action: "accept" as const };
        });
        const result = await client.callTool({ name: "connect_account", arguments: { account } });
        expect(result.content).toEqual([{ type: "text", text: `connected ${account} (accept)` }]);
        expect(ids.length).toBe(2);
        expect(ids[0]).toMatch(/^[\w-]{22}$/);
        expect(ids[1]).toBe(ids[0]);
        expect(tap.violations).toEqual([]);
      } finally {
        await boundary.stop();
        await app.close();
      }
    },
  );

  it("tells a 2025-06-18 client refused a URL question that URL questions need 2025-11-25 or later", async () => {
    const app = createInteractiveApp();
    const boundary = new Boundary(name, app, "interactive");
    await boundary.start();
    try {
      // Gemini CLI 0.61.0 negotiates 2025-06-18 and declares no elicitation; declaring elicitation.url is not open to it.
      const { client, tap } = await boundary.connect({ era: "2025-06-18", capabilities: { elicitation: { form: {} } } });
      const refused = await client.callTool({ name: "connect_account", arguments: { account: `acct-old-${name}` } }).then(
        () => undefined,
        (error: unknown) => error as { code?: number; message: string; data?: unknown },
      );
      expect(refused?.code).toBe(-32021);
      expect(refused?.message).toContain(
        "This client did not declare it at initialize (it declared elicitation.form), and the revision it negotiated, 2025-06-18, " +
          "has no URL elicitation: URL questions need 2025-11-25 or later",
      );
      expect(refused?.data).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
      expect(tap.violations).toEqual([]);
    } finally {
      await boundary.stop();
      await app.close();
    }
  });
});
