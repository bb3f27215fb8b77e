// Pins the 403 insufficient_scope challenge of refusals the dispatcher makes (not before
// dispatch, as for a tools/call): tasks/get, tasks/update and tasks/cancel of a task whose tool
// needs a scope the token lacks, and completion/complete of a scoped prompt's argument. Over
// listen({ auth }), a mounted nodeHandler({ auth }) on a node:http server and a mounted
// httpHandler({ auth }), against a real authorization server (oidc-provider,
// test/oauth/oidc-harness.mjs), each such 403 carries the same challenge a tools/call refusal does:
// error, error_description, the entry's own resource_metadata URL and every scope needed; a token
// with the scope is answered as before (the task, its acknowledgements).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { IsString } from "class-validator";
import { Arg, Complete, jwtVerifier, McpApp, Prompt, Result, Scopes, Tool, type HttpListener } from "roundtrip-mcp";
import { MemoryLogger } from "roundtrip-mcp/testing";
import { tasks } from "../../src/features/tasks/tasks-feature";
import { AuthorizationServer } from "../oauth/authorization-server";

const READ = ["preferences:read"];
const ADMIN = ["preferences:read", "preferences:admin"];
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
};

class LanguageArgs {
  @IsString()
  @Complete(({ value }) => ["python", "typescript"].filter((l) => l.startsWith(value)))
  language!: string;
}

@Scopes("preferences:read")
class Admin {
  @Tool({ description: "Rebuilds the index as a task", task: "optional", scopes: ["preferences:admin"] })
  async rebuild_index() {
    return Result.text("rebuilt");
  }

  @Scopes("preferences:admin")
  @Prompt({ name: "audit" })
  audit(@Arg() args: LanguageArgs) {
    return `Audit this ${args.language} code.`;
  }
}

/** The challenge a tools/call refusal carries, for an entry serving `resource`. */
function challenge(resource: string, scopes: string): string {
  const url = new URL(resource);
  const metadata = `${url.origin}/.well-known/oauth-protected-resource${url.pathname}`;
  return `Bearer error="insufficient_scope", error_description="The access token lacks a scope this operation needs", resource_metadata="${metadata}", scope="${scopes}"`;
}

type Send = (token: string, method: string, params: Record<string, unknown>, name?: string) => Promise<Response>;

function request(url: string, token: string, method: string, params: Record<string, unknown>, name?: string): Request {
  return new Request(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(name !== undefined && { "mcp-name": name }),
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 5, method, params: { ...params, _meta: META } }),
  });
}

describe("the 403 challenge of a refusal made at dispatch, on every HTTP entry with OAuth", () => {
  let as: AuthorizationServer;
  let app: McpApp;
  let listener: HttpListener;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    as = await AuthorizationServer.start();
    app = McpApp.create({
      components: [Admin],
      state: { ephemeral: true },
      logger: new MemoryLogger(),
      features: [tasks({ store: "memory:" })],
    });
    listener = await app.listen({ auth: { verifier: jwtVerifier({ issuer: as.issuer, jwksCooldownMs: 0 }) } });
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await app?.close();
    await as?.close();
  });

  /** Each entry: the resource it serves and how a request reaches it. */
  const entries: [string, () => Promise<{ resource: string; send: Send }>][] = [
    [
      "listen({ auth })",
      async () => ({
        resource: listener.url,
        send: (token, method, params, name) => fetch(request(listener.url, token, method, params, name)),
      }),
    ],
    [
      "nodeHandler({ auth }) on a node:http server",
      async () => {
        const server = createServer();
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
        closers.push(async () => {
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
        });
        const resource = `http://127.0.0.1:${(server.address() as AddressInfo).port}/node/mcp`;
        const handler = app.nodeHandler({ auth: { resource, verifier: jwtVerifier({ issuer: as.issuer }) }, allowedHosts: ["127.0.0.1"] });
        server.on("request", (req, res) => void handler(req, res));
        return { resource, send: (token, method, params, name) => fetch(request(resource, token, method, params, name)) };
      },
    ],
    [
      "httpHandler({ auth })",
      async () => {
        const resource = "http://127.0.0.1:9/mount/mcp";
        const handler = app.httpHandler({ auth: { resource, verifier: jwtVerifier({ issuer: as.issuer }) } });
        return { resource, send: (token, method, params, name) => handler.fetch(request(resource, token, method, params, name)) };
      },
    ],
  ];

  it.each(entries)("challenges tasks/get, tasks/update and tasks/cancel with resource_metadata over %s", async (_, entry) => {
    const { resource, send } = await entry();
    const admin = await as.token(resource, ADMIN);
    const reader = await as.token(resource, READ);

    const refusedCall = await send(reader, "tools/call", { name: "rebuild_index", arguments: {} }, "rebuild_index");
    expect(refusedCall.status).toBe(403);
    const expected = challenge(resource, "preferences:read preferences:admin");
    expect(refusedCall.headers.get("www-authenticate")).toBe(expected);

    const created = await send(admin, "tools/call", { name: "rebuild_index", arguments: {} }, "rebuild_index");
    expect(created.status).toBe(200);
    const { taskId } = ((await created.json()) as { result: { taskId: string } }).result;
    expect(typeof taskId).toBe("string");

    for (const [method, params] of [
      ["tasks/get", { taskId }],
      ["tasks/update", { taskId, inputResponses: {} }],
      ["tasks/cancel", { taskId }],
    ] as const) {
      const refused = await send(reader, method, params, taskId);
      expect([method, refused.status, refused.headers.get("www-authenticate")]).toEqual([method, 403, expected]);
      expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(-32003);
    }
    const got = await send(admin, "tasks/get", { taskId }, taskId);
    expect(got.status).toBe(200);
    expect(((await got.json()) as { result: { taskId: string } }).result.taskId).toBe(taskId);
  });

  it.each(entries)("challenges completion/complete of a scoped prompt with resource_metadata over %s", async (_, entry) => {
    const { resource, send } = await entry();
    const reader = await as.token(resource, READ);
    const params = { ref: { type: "ref/prompt", name: "audit" }, argument: { name: "language", value: "py" } };
    const refused = await send(reader, "completion/complete", params);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toBe(challenge(resource, "preferences:read preferences:admin"));
    const allowed = await send(await as.token(resource, ADMIN), "completion/complete", params);
    expect(((await allowed.json()) as { result: unknown }).result).toMatchObject({ completion: { values: ["python"] } });
  });
});
