// The fast lane's differential corpus: hand-written cases for every error class and every method
// of the fixture apps, and a seeded fast-check generator: half well-formed modern requests the lane
// takes (params varied: right and wrong names, arguments and retry fields), half variations whose
// envelope, headers, ids, params and retry fields are each mutated or left alone.
import fc from "fast-check";
import { SHIPPED_NAME_PARAMS } from "../../src/features/name-params";

export const PV = "2026-07-28";
const PV_KEY = "io.modelcontextprotocol/protocolVersion";
const CAPS_KEY = "io.modelcontextprotocol/clientCapabilities";
const INFO_KEY = "io.modelcontextprotocol/clientInfo";

export type Fixture = "feature" | "interactive" | "tasks";

export interface WireCase {
  label: string;
  body: unknown;
  headers: Record<string, string>;
  method?: string;
}

type Json = Record<string, unknown>;

export function envelope(capabilities: unknown = {}, extra: Json = {}): Json {
  return { [PV_KEY]: PV, [CAPS_KEY]: capabilities, [INFO_KEY]: { name: "diff", version: "1" }, ...extra };
}

const NAME_PARAM = SHIPPED_NAME_PARAMS;

/** The standard headers of a request for `method` with these params (Mcp-Name mirrored when the SDK reads it). */
export function headersFor(method: string, params: Json | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PV,
    "mcp-method": method,
  };
  const mirrored = params?.[NAME_PARAM[method] ?? ""];
  if (typeof mirrored === "string") headers["mcp-name"] = mirrored;
  return headers;
}

/** A well-formed modern request, with header overrides (undefined removes one). */
export function request(
  label: string,
  method: string,
  params: Json,
  options: { id?: unknown; headers?: Record<string, string | undefined>; capabilities?: unknown } = {},
): WireCase {
  const full = { _meta: envelope(options.capabilities ?? {}), ...params };
  const headers = headersFor(method, full);
  for (const [k, v] of Object.entries(options.headers ?? {})) {
    if (v === undefined) delete headers[k];
    else headers[k] = v;
  }
  return { label, body: { jsonrpc: "2.0", id: options.id ?? 1, method, params: full }, headers };
}

const ELICIT = { elicitation: { form: {}, url: {} } };

/** Cases of every error class and method, valid on any of the fixture apps. */
export function commonCorpus(): WireCase[] {
  const list = (label: string, extra: Partial<WireCase> = {}): WireCase => ({ ...request(label, "tools/list", {}), ...extra });
  const base = request("base", "tools/list", {});
  const body = base.body as Json;
  const params = body.params as Json;
  return [
    list("tools/list"),
    list("tools/list, string id", { body: { ...body, id: "abc" } }),
    list("tools/list, id 0", { body: { ...body, id: 0 } }),
    list("tools/list, negative id", { body: { ...body, id: -7 } }),
    list("tools/list, id 1.5 (-32600)", { body: { ...body, id: 1.5 } }),
    list("tools/list, id null (-32600)", { body: { ...body, id: null } }),
    list("tools/list, id 2^60", { body: { ...body, id: 2 ** 60 } }),
    list("tools/list, jsonrpc 1.0 (-32600)", { body: { ...body, jsonrpc: "1.0" } }),
    list("tools/list, extra top-level key (-32600)", { body: { ...body, extra: 1 } }),
    list("params an array (-32600)", { body: { ...body, params: [] } }),
    list("method 5 (-32600)", { body: { ...body, method: 5 } }),
    list("empty batch (-32600)", { body: [] }),
    list("batch of a modern request (-32600)", { body: [body] }),
    list("body null", { body: null }),
    list("body 5", { body: 5 }),
    list("not JSON (-32700)", { body: "{oops" }),
    list("empty body", { body: "" }),
    list("posted response", { body: { jsonrpc: "2.0", id: 1, result: {} } }),
    list("tools/list, cursor 5", { body: { ...body, params: { ...params, cursor: 5 } } }),
    list("tools/list, cursor string", { body: { ...body, params: { ...params, cursor: "nope" } } }),
    list("Content-Type text/plain (415)", { headers: { ...base.headers, "content-type": "text/plain" } }),
    list("Content-Type with charset", { headers: { ...base.headers, "content-type": "application/json; charset=utf-8" } }),
    list("no Content-Type (415)", { headers: Object.fromEntries(Object.entries(base.headers).filter(([k]) => k !== "content-type")) }),
    list("GET (405)", { method: "GET" }),
    list("DELETE (405)", { method: "DELETE" }),
    list("PUT (405)", { method: "PUT" }),
    list("no Accept", { headers: Object.fromEntries(Object.entries(base.headers).filter(([k]) => k !== "accept")) }),
    request("MCP-Protocol-Version missing (-32020)", "tools/list", {}, { headers: { "mcp-protocol-version": undefined } }),
    request("MCP-Protocol-Version 2025-11-25 (-32020)", "tools/list", {}, { headers: { "mcp-protocol-version": "2025-11-25" } }),
    request("MCP-Protocol-Version with spaces", "tools/list", {}, { headers: { "mcp-protocol-version": `  ${PV} ` } }),
    request("Mcp-Method missing (-32020)", "tools/list", {}, { headers: { "mcp-method": undefined } }),
    request("Mcp-Method mismatch (-32020)", "tools/list", {}, { headers: { "mcp-method": "tools/call" } }),
    request("Mcp-Method wrong case (-32020)", "tools/list", {}, { headers: { "mcp-method": "Tools/List" } }),
    request("unknown method (-32601)", "foo/bar", {}),
    request("ping is not 2026 (-32601)", "ping", {}),
    request("logging/setLevel is not 2026 (-32601)", "logging/setLevel", { level: "info" }),
    request("resources/subscribe is not 2026 (-32601)", "resources/subscribe", { uri: "docs://readme" }),
    request("initialize with a modern envelope", "initialize", {
      protocolVersion: PV,
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
    }),
    request("server/discover", "server/discover", {}),
    {
      label: "no _meta (-32602)",
      body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      headers: headersFor("tools/list", {}),
    },
    { label: "no params (-32602)", body: { jsonrpc: "2.0", id: 1, method: "tools/list" }, headers: headersFor("tools/list", {}) },
    {
      label: "unknown method, no _meta (-32602)",
      body: { jsonrpc: "2.0", id: 1, method: "foo/bar", params: {} },
      headers: headersFor("foo/bar", {}),
    },
    {
      label: "envelope without protocolVersion",
      body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { [CAPS_KEY]: {} } } },
      headers: headersFor("tools/list", {}),
    },
    {
      label: "envelope without clientCapabilities (-32602)",
      body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { [PV_KEY]: PV } } },
      headers: headersFor("tools/list", {}),
    },
    {
      label: "envelope without clientInfo",
      body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { [PV_KEY]: PV, [CAPS_KEY]: {} } } },
      headers: headersFor("tools/list", {}),
    },
    request("clientCapabilities 5 (-32602)", "tools/list", {}, { capabilities: 5 }),
    request("clientCapabilities elicitation 5 (-32602)", "tools/list", {}, { capabilities: { elicitation: 5 } }),
    request("clientCapabilities with unknown key", "tools/list", {}, { capabilities: { frobnicate: {} } }),
    { ...request("clientInfo {} (-32602)", "tools/list", {}), body: { ...body, params: { _meta: { ...envelope(), [INFO_KEY]: {} } } } },
    { ...request("protocolVersion 5 (-32602)", "tools/list", {}), body: { ...body, params: { _meta: { ...envelope(), [PV_KEY]: 5 } } } },
    {
      ...request("envelope 2099-01-01 (-32022)", "tools/list", {}, { headers: { "mcp-protocol-version": "2099-01-01" } }),
      body: { ...body, params: { _meta: { ...envelope(), [PV_KEY]: "2099-01-01" } } },
    },
    {
      ...request("envelope 2025-11-25 (-32022)", "tools/list", {}, { headers: { "mcp-protocol-version": "2025-11-25" } }),
      body: { ...body, params: { _meta: { ...envelope(), [PV_KEY]: "2025-11-25" } } },
    },
    {
      ...request("logLevel loud (-32602)", "tools/list", {}),
      body: { ...body, params: { _meta: envelope({}, { "io.modelcontextprotocol/logLevel": "loud" }) } },
    },
    {
      ...request("logLevel debug", "tools/list", {}),
      body: { ...body, params: { _meta: envelope({}, { "io.modelcontextprotocol/logLevel": "debug" }) } },
    },
    { ...request("progressToken", "tools/list", {}), body: { ...body, params: { _meta: envelope({}, { progressToken: "p" }) } } },
    {
      ...request("progressToken {} (-32600)", "tools/list", {}),
      body: { ...body, params: { _meta: envelope({}, { progressToken: {} }) } },
    },
    {
      ...request("traceparent", "tools/list", {}),
      body: { ...body, params: { _meta: envelope({}, { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" }) } },
    },
    { ...request("extension _meta key", "tools/list", {}), body: { ...body, params: { _meta: envelope({}, { "x.example/k": 1 }) } } },
    {
      label: "legacy claim-less tools/list",
      body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    },
    {
      label: "legacy initialize",
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
      },
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    },
    {
      label: "legacy initialize, no Accept (406)",
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
      },
      headers: { "content-type": "application/json" },
    },
    {
      label: "initialize with a modern header (-32020)",
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
      },
      headers: headersFor("initialize", {}),
    },
    {
      label: "modern notification",
      body: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, _meta: envelope() } },
      headers: headersFor("notifications/cancelled", {}),
    },
    {
      label: "deep nesting (limit)",
      body: { ...body, params: { ...params, cursor: JSON.parse("[".repeat(80) + "]".repeat(80)) } },
      headers: base.headers,
    },
    {
      label: "too many keys (limit)",
      body: { ...body, params: { ...params, extra: Object.fromEntries(Array.from({ length: 1_200 }, (_, i) => [`k${i}`, i])) } },
      headers: base.headers,
    },
    { label: "body over maxBodyBytes (413)", body: { ...body, params: { ...params, pad: "x".repeat(1_100_000) } }, headers: base.headers },
    request("tools/call requestState 5", "tools/call", { name: "nope", requestState: 5 }),
    request("tools/call inputResponses 5", "tools/call", { name: "nope", inputResponses: 5 }),
    request("tools/call inputResponses entry 5", "tools/call", { name: "nope", inputResponses: { q: 5 } }),
    request("tools/call name 5", "tools/call", { name: 5 }),
    request("tools/call no name", "tools/call", {}),
    request("tools/call arguments []", "tools/call", { name: "nope", arguments: [] }),
    request("tools/call arguments null", "tools/call", { name: "nope", arguments: null }),
    request("tools/call unknown tool", "tools/call", { name: "nope" }),
    request("tools/call Mcp-Name missing (-32020)", "tools/call", { name: "nope" }, { headers: { "mcp-name": undefined } }),
    request("tools/call Mcp-Name mismatch (-32020)", "tools/call", { name: "nope" }, { headers: { "mcp-name": "other" } }),
    request(
      "tools/call Mcp-Name base64",
      "tools/call",
      { name: "nope" },
      { headers: { "mcp-name": `=?base64?${Buffer.from("nope").toString("base64")}?=` } },
    ),
    request("tools/call Mcp-Name bad base64 (-32020)", "tools/call", { name: "nope" }, { headers: { "mcp-name": "=?base64?bm9wZQ?=" } }),
    request("tools/call Mcp-Name with spaces", "tools/call", { name: "nope" }, { headers: { "mcp-name": " nope\t" } }),
    request("tools/list with a stray Mcp-Name", "tools/list", {}, { headers: { "mcp-name": "x" } }),
    request("resources/read uri 5", "resources/read", { uri: 5 }),
    request("resources/read no uri", "resources/read", {}),
    request("resources/read unknown", "resources/read", { uri: "nothing://here" }),
    request(
      "resources/read Mcp-Name missing (-32020)",
      "resources/read",
      { uri: "nothing://here" },
      { headers: { "mcp-name": undefined } },
    ),
    request("prompts/get unknown", "prompts/get", { name: "nope" }),
    request("prompts/get no name", "prompts/get", {}),
    request("prompts/get arguments {a:1}", "prompts/get", { name: "nope", arguments: { a: 1 } }),
    request("prompts/list", "prompts/list", {}),
    request("resources/list", "resources/list", {}),
    request("resources/templates/list", "resources/templates/list", {}),
    request("completion/complete bad ref", "completion/complete", { ref: { type: "ref/nope" }, argument: { name: "a", value: "b" } }),
    request("completion/complete no argument", "completion/complete", { ref: { type: "ref/prompt", name: "x" } }),
  ];
}

/** Cases for the feature fixture (tools, resources, prompts, completion, every error path). */
export function featureCorpus(): WireCase[] {
  const call = (name: string, args?: Json, extra: Json = {}) =>
    request(`tools/call ${name} ${JSON.stringify(args ?? {})}`, "tools/call", { name, ...(args && { arguments: args }), ...extra });
  return [
    ...commonCorpus(),
    call("greet", { name: "Ann" }),
    call("greet", { name: "Ann", style: "loud" }),
    call("greet", { name: 5 }),
    call("greet", { name: "a-name-that-is-far-too-long" }),
    call("greet"),
    call("add", { a: 1, b: 2 }),
    call("add", { a: "x", b: 2 }),
    call("add", { a: 1, b: 5000 }),
    call("add", { a: 1, b: 2, c: 3 }),
    call("bad_output"),
    call("echo_raw", { items: ["a"] }),
    call("echo_raw", { items: [1] }),
    call("echo_raw", { items: ["a"], when: "now" }),
    call("ping"),
    call("ping", {}, { requestState: "not-a-token" }),
    call("ping", {}, { inputResponses: {} }),
    call("work"),
    {
      ...call("work"),
      label: "work with progress",
      body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "work", _meta: envelope({}, { progressToken: 3 }) } },
    },
    {
      ...call("work"),
      label: "work with logLevel",
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "work", _meta: envelope({}, { "io.modelcontextprotocol/logLevel": "info" }) },
      },
    },
    call("whoami"),
    request("whoami with capabilities", "tools/call", { name: "whoami" }, { capabilities: { elicitation: { form: {} }, sampling: {} } }),
    call("typed_error"),
    call("plain_error"),
    call("media"),
    call("soft_fail"),
    request("resources/read readme", "resources/read", { uri: "docs://readme" }),
    request("resources/read logo", "resources/read", { uri: "docs://logo" }),
    request("resources/read note", "resources/read", { uri: "notes://inbox/1" }),
    request("resources/read missing note", "resources/read", { uri: "notes://inbox/missing" }),
    request("resources/read failing note", "resources/read", { uri: "notes://inbox/boom" }),
    request("resources/read typed-error note", "resources/read", { uri: "notes://inbox/typed" }),
    request("prompts/get code_review", "prompts/get", { name: "code_review", arguments: { language: "python" } }),
    request("prompts/get code_review missing argument", "prompts/get", { name: "code_review" }),
    request("prompts/get plain_prompt", "prompts/get", { name: "plain_prompt" }),
    request("prompts/get broken_prompt", "prompts/get", { name: "broken_prompt" }),
    request("completion/complete prompt", "completion/complete", {
      ref: { type: "ref/prompt", name: "code_review" },
      argument: { name: "language", value: "ty" },
    }),
    request("completion/complete template", "completion/complete", {
      ref: { type: "ref/resource", uri: "notes://{folder}/{id}" },
      argument: { name: "folder", value: "i" },
    }),
  ];
}

/** Cases for the interactive fixture (elicitation): calls that answer input_required, and -32021. */
export function interactiveCorpus(): WireCase[] {
  return [
    ...commonCorpus(),
    request("book_trip without elicitation (-32021)", "tools/call", { name: "book_trip", arguments: { destination: "Lyon" } }),
    request(
      "book_trip with elicitation",
      "tools/call",
      { name: "book_trip", arguments: { destination: "Lyon" } },
      { capabilities: ELICIT },
    ),
    request(
      "book_trip, bare elicitation",
      "tools/call",
      { name: "book_trip", arguments: { destination: "Lyon" } },
      { capabilities: { elicitation: {} } },
    ),
    request(
      "book_trip answered, no state",
      "tools/call",
      {
        name: "book_trip",
        arguments: { destination: "Lyon" },
        inputResponses: { traveller: { action: "accept", content: { name: "Ann" } }, seats: { action: "accept", content: { count: 2 } } },
      },
      { capabilities: ELICIT },
    ),
    request(
      "book_trip with a forged state",
      "tools/call",
      {
        name: "book_trip",
        arguments: { destination: "Lyon" },
        requestState: "rt1.default.eyJ4IjoxfQ.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      },
      { capabilities: ELICIT },
    ),
    request("choose_colour", "tools/call", { name: "choose_colour" }, { capabilities: ELICIT }),
    request(
      "optional_note declined",
      "tools/call",
      { name: "optional_note", inputResponses: { note: { action: "decline" } } },
      { capabilities: ELICIT },
    ),
    request("connect_account", "tools/call", { name: "connect_account", arguments: { service: "x" } }, { capabilities: ELICIT }),
  ];
}

/** Cases for the tasks fixture (the methods of the tasks extension, and task-augmented calls). */
export function tasksCorpus(): WireCase[] {
  const TASKS = { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } };
  return [
    ...commonCorpus(),
    request("tasks/get unknown", "tasks/get", { taskId: "nope" }, { capabilities: TASKS }),
    request("tasks/get taskId 5", "tasks/get", { taskId: 5 }, { capabilities: TASKS }),
    request("tasks/get Mcp-Name missing", "tasks/get", { taskId: "nope" }, { capabilities: TASKS, headers: { "mcp-name": undefined } }),
    request("tasks/cancel unknown", "tasks/cancel", { taskId: "nope" }, { capabilities: TASKS }),
    request("tasks/update unknown", "tasks/update", { taskId: "nope", inputResponses: {} }, { capabilities: TASKS }),
    request("tasks/list", "tasks/list", {}, { capabilities: TASKS }),
    request("count without the tasks capability", "tools/call", { name: "count", arguments: { to: 1 } }),
    request("fails inline", "tools/call", { name: "fails" }, { capabilities: {} }),
  ];
}

// ---- generated cases ----

const CAPABILITIES = fc.constantFrom<unknown>(
  {},
  ELICIT,
  { elicitation: {} },
  { sampling: {}, roots: {} },
  { elicitation: 5 },
  5,
  { extensions: { "io.modelcontextprotocol/tasks": {} } },
  null,
);
const META_EXTRA = fc.constantFrom<Json>(
  {},
  {},
  {},
  { progressToken: 1 },
  { progressToken: 1.5 },
  { "io.modelcontextprotocol/logLevel": "debug" },
  { traceparent: "x" },
  { "x.example/k": [1, 2] },
  { "io.modelcontextprotocol/related-task": { taskId: "t" } },
);
const VERSIONS = fc.constantFrom<unknown>(PV, PV, PV, PV, "2025-11-25", "2099-01-01", 5, undefined);
const IDS = fc.oneof(
  fc.integer({ min: -5, max: 1_000_000 }),
  fc.string({ maxLength: 6 }),
  fc.constantFrom<unknown>(1.5, null, undefined, 2 ** 60, -0),
);

/** Arbitrary params for `method` on `fixture`: mostly plausible, sometimes wrong in one place. */
function paramsFor(fixture: Fixture, method: string): fc.Arbitrary<Json> {
  const toolNames =
    fixture === "feature"
      ? ["greet", "add", "ping", "whoami", "media", "soft_fail", "typed_error", "plain_error", "bad_output", "echo_raw"]
      : fixture === "interactive"
        ? ["book_trip", "choose_colour", "optional_note", "required_note", "connect_account"]
        : ["count", "fails", "nope"];
  const name = fc.oneof(fc.constantFrom(...toolNames), fc.constantFrom<unknown>("nope", 5, ""));
  const args = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom<unknown>(
      { name: "Ann" },
      { a: 1, b: 2 },
      { a: "x", b: 2 },
      { destination: "Lyon" },
      { items: ["a"] },
      { to: 2 },
      {},
      [],
      null,
      "x",
    ),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  );
  const retry = fc.record(
    {
      requestState: fc.constantFrom<unknown>("junk", 5, "rt1.default.eyJ4IjoxfQ.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
      inputResponses: fc.constantFrom<unknown>(
        {},
        5,
        { traveller: { action: "accept", content: { name: "Ann" } } },
        { q: 5 },
        { note: { action: "decline" } },
      ),
    },
    { requiredKeys: [] },
  );
  switch (method) {
    case "tools/call":
      return fc.tuple(name, args, retry).map(([n, a, r]) => ({ name: n, ...(a !== undefined && { arguments: a }), ...r }));
    case "prompts/get":
      return fc
        .tuple(
          fc.constantFrom<unknown>("code_review", "plain_prompt", "broken_prompt", "nope", 5),
          fc.constantFrom<unknown>(undefined, { language: "python" }, { language: 5 }, []),
        )
        .map(([n, a]) => ({ name: n, ...(a !== undefined && { arguments: a }) }));
    case "resources/read":
      return fc
        .constantFrom<unknown>(
          "docs://readme",
          "docs://logo",
          "notes://inbox/1",
          "notes://a/missing",
          "notes://a/boom",
          "notes://a/typed",
          "x://y",
          5,
        )
        .map((uri) => ({ uri }));
    case "completion/complete":
      return fc.constantFrom<Json>(
        { ref: { type: "ref/prompt", name: "code_review" }, argument: { name: "language", value: "p" } },
        { ref: { type: "ref/nope" }, argument: { name: "a", value: "b" } },
        {},
      );
    case "tasks/get":
    case "tasks/cancel":
      return fc.constantFrom<unknown>("nope", 5, "").map((taskId) => ({ taskId }));
    default:
      return fc.oneof(fc.constant({}), fc.constantFrom<Json>({ cursor: "c" }, { cursor: 5 }, { extra: true }));
  }
}

const METHODS = [
  "tools/list",
  "tools/call",
  "tools/call",
  "tools/call",
  "prompts/list",
  "prompts/get",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "completion/complete",
  "server/discover",
  "tasks/get",
  "tasks/cancel",
  "foo/bar",
  "ping",
];

/** Generated cases: a plausible modern request, then zero or more of its parts changed. */
export function generatedCase(fixture: Fixture): fc.Arbitrary<WireCase> {
  return fc
    .constantFrom(...METHODS)
    .chain((method) =>
      fc.record({
        method: fc.constant(method),
        params: paramsFor(fixture, method),
        id: IDS,
        capabilities: CAPABILITIES,
        metaExtra: META_EXTRA,
        version: VERSIONS,
        dropInfo: fc.boolean(),
        versionHeader: fc.constantFrom<string | undefined | null>(null, null, null, undefined, "2025-11-25", ` ${PV}`),
        methodHeader: fc.constantFrom<string | undefined | null>(null, null, null, undefined, "tools/list", "x"),
        nameHeader: fc.constantFrom<string | undefined | null>(null, null, null, undefined, "other", "base64"),
        contentType: fc.constantFrom(
          "application/json",
          "application/json",
          "application/json",
          "application/json; charset=utf-8",
          "text/plain",
        ),
        jsonrpc: fc.constantFrom<unknown>("2.0", "2.0", "2.0", "2.0", "1.0"),
      }),
    )
    .map((g) => {
      const meta: Json = { ...envelope(g.capabilities, g.metaExtra) };
      if (g.version === undefined) delete meta[PV_KEY];
      else meta[PV_KEY] = g.version;
      if (g.dropInfo) delete meta[INFO_KEY];
      const params: Json = { _meta: meta, ...g.params };
      const headers = headersFor(g.method, params);
      headers["content-type"] = g.contentType;
      const setHeader = (name: string, value: string | undefined | null) => {
        if (value === null) return;
        if (value === undefined) delete headers[name];
        else headers[name] = value;
      };
      setHeader("mcp-protocol-version", g.versionHeader);
      setHeader("mcp-method", g.methodHeader);
      const named = params[NAME_PARAM[g.method] ?? ""];
      setHeader(
        "mcp-name",
        g.nameHeader === "base64"
          ? typeof named === "string"
            ? `=?base64?${Buffer.from(named).toString("base64")}?=`
            : "=?base64?!!?="
          : g.nameHeader,
      );
      const body: Json = { jsonrpc: g.jsonrpc, ...(g.id !== undefined && { id: g.id }), method: g.method, params };
      return { label: `generated ${g.method}`, body, headers };
    });
}

/** Capabilities a real client declares: every well-formed shape the fixtures react to. */
const DECLARED_CAPABILITIES = fc.constantFrom<Json>(
  {},
  ELICIT,
  { elicitation: {} },
  { elicitation: { form: {} } },
  { sampling: {}, roots: {} },
  { ...ELICIT, sampling: {} },
);
const WELL_FORMED_METHODS = [
  "tools/list",
  "tools/call",
  "tools/call",
  "tools/call",
  "tools/call",
  "prompts/list",
  "prompts/get",
  "resources/list",
  "resources/templates/list",
  "resources/read",
];

/**
 * Requests the lane should take: a valid envelope (declared capabilities, with or without
 * clientInfo), matching headers, a string or integer id, JSON-RPC 2.0, and params drawn from the
 * same variations as `generatedCase` (right and wrong tool names, arguments and retry fields), so
 * the dispatcher's answers, errors and input-required rounds are compared, not only the checks in
 * front of them.
 */
export function wellFormedCase(fixture: Fixture): fc.Arbitrary<WireCase> {
  return fc
    .constantFrom(...WELL_FORMED_METHODS)
    .chain((method) =>
      fc.record({
        method: fc.constant(method),
        params: paramsFor(fixture, method),
        id: fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.string({ minLength: 1, maxLength: 6 })),
        capabilities: DECLARED_CAPABILITIES,
        dropInfo: fc.boolean(),
        contentType: fc.constantFrom("application/json", "application/json; charset=utf-8"),
      }),
    )
    .map((g) => {
      const meta = envelope(g.capabilities);
      if (g.dropInfo) delete meta[INFO_KEY];
      const params: Json = { ...(g.params as Json), _meta: meta };
      const headers = headersFor(g.method, params);
      headers["content-type"] = g.contentType;
      return { label: `well-formed ${g.method}`, body: { jsonrpc: "2.0", id: g.id, method: g.method, params }, headers };
    });
}

/** Generated cases, `count` of them, from `seed`: half well-formed, half mutated. */
export function generatedCases(fixture: Fixture, count: number, seed: number): WireCase[] {
  return fc.sample(fc.oneof(wellFormedCase(fixture), generatedCase(fixture)), { numRuns: count, seed });
}
