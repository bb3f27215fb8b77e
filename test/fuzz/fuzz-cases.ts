// Mutated requests for the fuzz sweep: real, valid requests of every method of the fuzz app
// (test/e2e/fixtures/fuzz-app.ts), each changed one to three times by fast-check: values of the
// wrong type at any path, missing and extra fields, huge and deep values, odd ids, broken
// envelopes (jsonrpc, method, params, _meta), broken text (truncated, spliced, not UTF-8) and,
// over HTTP, missing, mismatched and odd headers and methods. Deterministic for a seed.
import fc from "fast-check";

const PROTOCOL = "2026-07-28";
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": PROTOCOL,
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {}, url: {} } },
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One request to send: the text (or bytes) on the wire and, over HTTP, its method and headers. */
export interface FuzzCase {
  /** The mutations applied, for the report. */
  readonly kinds: readonly string[];
  /** The body (HTTP) or line (stdio); bytes when a mutation broke the UTF-8. */
  readonly body: string | Buffer;
  /** The message itself when the body is JSON (what an in-process connection can be sent). */
  readonly message: unknown;
  readonly httpMethod: string;
  readonly headers: Readonly<Record<string, string>>;
}

interface Base {
  readonly method: string;
  readonly params?: Json;
  /** A notification: no id. */
  readonly notification?: boolean;
}

const BASES: readonly Base[] = [
  { method: "server/discover", params: {} },
  { method: "tools/list", params: {} },
  { method: "prompts/list", params: {} },
  { method: "resources/list", params: {} },
  { method: "resources/templates/list", params: {} },
  { method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } },
  {
    method: "tools/call",
    params: {
      name: "order",
      arguments: {
        customer: "ada",
        lines: [
          { sku: "x1", qty: 2 },
          { sku: "y2", qty: 1 },
        ],
        delivery: "post",
      },
    },
  },
  { method: "tools/call", params: { name: "echo_raw", arguments: { items: ["a", "b"], mode: "a", nested: { n: 1 } } } },
  { method: "tools/call", params: { name: "route", arguments: { region: "eu-west" } } },
  { method: "tools/call", params: { name: "ping", arguments: {} } },
  { method: "tools/call", params: { name: "whoami", arguments: {}, _meta: { progressToken: "p1" } } },
  { method: "tools/call", params: { name: "soft_fail", arguments: {} } },
  { method: "tools/call", params: { name: "typed_error", arguments: {} } },
  { method: "tools/call", params: { name: "book", arguments: {} } },
  {
    method: "tools/call",
    params: {
      name: "book",
      arguments: {},
      inputResponses: {
        traveller: { action: "accept", content: { name: "Ada", email: "ada@example.com" } },
        seats: { action: "accept", content: { count: 2 } },
      },
    },
  },
  {
    method: "tools/call",
    params: {
      name: "book",
      arguments: {},
      inputResponses: { seats: { action: "decline" } },
      requestState: "rt1.default.e30.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    },
  },
  { method: "tools/call", params: { name: "consent", arguments: {}, inputResponses: { consent: { action: "accept" } } } },
  { method: "resources/read", params: { uri: "docs://readme" } },
  { method: "resources/read", params: { uri: "notes://inbox/7" } },
  { method: "resources/read", params: { uri: "cards://3", inputResponses: { confirm: { action: "accept", content: { answer: "yes" } } } } },
  { method: "prompts/get", params: { name: "code_review", arguments: { language: "python", focus: "naming" } } },
  { method: "prompts/get", params: { name: "interview" } },
  {
    method: "completion/complete",
    params: { ref: { type: "ref/prompt", name: "code_review" }, argument: { name: "language", value: "py" } },
  },
  {
    method: "completion/complete",
    params: {
      ref: { type: "ref/resource", uri: "notes://{folder}/{id}" },
      argument: { name: "folder", value: "in" },
      context: { arguments: { id: "1" } },
    },
  },
  { method: "notifications/cancelled", params: { requestId: 99, reason: "fuzz" }, notification: true },
];

/** Methods a mutation may swap in: the app's, removed and unknown ones (never subscriptions/listen, which streams until closed). */
const METHODS = [
  "tools/call",
  "tools/list",
  "resources/read",
  "prompts/get",
  "completion/complete",
  "server/discover",
  "ping",
  "initialize",
  "logging/setLevel",
  "resources/subscribe",
  "tasks/get",
  "foo/bar",
  "",
  "notifications/initialized",
  "x".repeat(300),
];

const KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "_meta",
  "inputResponses",
  "requestState",
  "name",
  "uri",
  "arguments",
  "cursor",
  "id",
  "method",
  "params",
  "jsonrpc",
  "io.modelcontextprotocol/protocolVersion",
  "progressToken",
  "x-extra",
];

function nested(levels: number): Json {
  let value: Json = 1;
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? { d: value } : [value];
  return value;
}

function wide(keys: number): Json {
  const out: Record<string, Json> = {};
  for (let i = 0; i < keys; i++) out[`k${i}`] = i;
  return out;
}

/** Values of every type, including ones that cross the request limits. */
const oddValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 12, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json> },
  // Constants are shared between samples: each use gets its own copy.
  {
    weight: 6,
    arbitrary: fc
      .constantFrom<Json>(null, true, false, 0, -1, 1.5, -0, 1e308, 2 ** 53 + 1, "", " ", "\u0000", "é\ud83d\ude00", [], {}, [[]], {
        "": "",
      })
      .map((v) => JSON.parse(JSON.stringify(v)) as Json),
  },
  { weight: 1, arbitrary: fc.integer({ min: 10, max: 2_500 }).map(nested) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 1_200 }).map(wide) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 1_100_000 }).map((n) => "s".repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 10, max: 110_000 }).map((n) => new Array<Json>(n).fill(0)) },
);

const oddId = fc
  .constantFrom<Json | undefined>(undefined, null, 0, -1, 1.5, 2 ** 60, "", "x".repeat(5000), [], {}, true, "id with spaces")
  .map((v) => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as Json)));

/** Changes the message in place, with values made for this case alone. */
type Mutation = (message: Record<string, Json>) => string;

/** Paths a mutation may pick: the first 2,000, no deeper than 12 levels (deeper is all the same to the server). */
function paths(root: Json): (string | number)[][] {
  const out: (string | number)[][] = [];
  const stack: { value: Json; path: (string | number)[] }[] = [{ value: root, path: [] }];
  while (stack.length > 0 && out.length < 2_000) {
    const { value, path } = stack.pop()!;
    out.push(path);
    if (path.length >= 12 || value === null || typeof value !== "object") continue;
    const entries: [string | number, Json][] = Array.isArray(value)
      ? value.slice(0, 50).map((v, i) => [i, v])
      : Object.entries(value).slice(0, 50);
    for (const [key, child] of entries) stack.push({ value: child, path: [...path, key] });
  }
  return out;
}

function parentOf(root: Json, path: (string | number)[]): { parent: Record<string, Json> | Json[]; key: string | number } | undefined {
  if (path.length === 0) return undefined;
  let node: Json = root;
  // Each path comes from paths(root), so every step exists; the path is not empty (checked above).
  for (const step of path.slice(0, -1)) node = (node as Record<string, Json>)[step as string]!;
  return node !== null && typeof node === "object" ? { parent: node, key: path[path.length - 1]! } : undefined;
}

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.nat(), oddValue).map(([pick, value]): Mutation => (m) => {
    const all = paths(m);
    const at = parentOf(m, all[pick % all.length]!);
    if (at) (at.parent as Record<string, Json>)[at.key as string] = value;
    return "value";
  }),
  fc.nat().map((pick): Mutation => (m) => {
    const all = paths(m);
    const at = parentOf(m, all[pick % all.length]!);
    if (at && Array.isArray(at.parent)) at.parent.splice(at.key as number, 1);
    else if (at) delete (at.parent as Record<string, Json>)[at.key as string];
    return "delete";
  }),
  fc.tuple(fc.nat(), fc.oneof(fc.constantFrom(...KEYS), fc.string()), oddValue).map(([pick, key, value]): Mutation => (m) => {
    const objects = paths(m).filter((p) => {
      const node = p.reduce<Json>((n, step) => (n as Record<string, Json>)[step as string]!, m);
      return node !== null && typeof node === "object" && !Array.isArray(node);
    });
    const path = objects[pick % objects.length]!; // the root is always an object, so objects is never empty
    const node = path.reduce<Json>((n, step) => (n as Record<string, Json>)[step as string]!, m) as Record<string, Json>;
    Object.defineProperty(node, key, { value: value, enumerable: true, configurable: true, writable: true });
    return "extra key";
  }),
  oddId.map((id): Mutation => (m) => {
    if (id === undefined) delete m.id;
    else m.id = id;
    return "id";
  }),
  fc.oneof(fc.constantFrom(...METHODS), fc.string()).map((method): Mutation => (m) => {
    m.method = method;
    return "method";
  }),
  fc.constantFrom<Json>("1.0", "2", 2, null, "").map((version): Mutation => (m) => {
    m.jsonrpc = version;
    return "jsonrpc";
  }),
  oddValue.map((params): Mutation => (m) => {
    m.params = params;
    return "params";
  }),
  fc
    .tuple(
      fc.constantFrom(
        "io.modelcontextprotocol/protocolVersion",
        "io.modelcontextprotocol/clientCapabilities",
        "io.modelcontextprotocol/clientInfo",
        "io.modelcontextprotocol/logLevel",
        "progressToken",
      ),
      oddValue,
    )
    .map(([key, value]): Mutation => (m) => {
      const params = m.params as Record<string, Json> | undefined;
      const meta = params?._meta;
      if (meta !== null && typeof meta === "object" && !Array.isArray(meta)) (meta as Record<string, Json>)[key] = value;
      return "envelope";
    }),
);

/** What happens to the text (or the HTTP framing) after the message mutations. */
type TextMutation = (text: string) => string | Buffer;
const textMutation: fc.Arbitrary<{ kind: string; apply: TextMutation } | undefined> = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.nat().map((at) => ({ kind: "truncated", apply: (t: string) => t.slice(0, at % Math.max(1, t.length)) })) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.nat(), fc.string({ minLength: 1, maxLength: 4 })).map(([at, junk]) => ({
      kind: "spliced",
      apply: (t: string) => t.slice(0, at % (t.length + 1)) + junk + t.slice(at % (t.length + 1)),
    })),
  },
  {
    weight: 1,
    arbitrary: fc.constant({
      kind: "not UTF-8",
      apply: (t: string) => Buffer.concat([Buffer.from(t.slice(0, 20)), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(t.slice(20))]),
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("", "null", "[]", "[1,2]", "5", '"text"', "{}", "{".repeat(3000))
      .map((body) => ({ kind: "replaced body", apply: () => body })),
  },
);

type HeaderMutation = (headers: Record<string, string>, method: string) => { headers: Record<string, string>; httpMethod: string };
const headerMutation: fc.Arbitrary<{ kind: string; apply: HeaderMutation } | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("content-type", "mcp-protocol-version", "mcp-method", "mcp-name", "accept")
      .map((name) => ({ kind: `no ${name}`, apply: (h: Record<string, string>) => ({ headers: omit(h, name), httpMethod: "POST" }) })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          "content-type",
          "mcp-protocol-version",
          "mcp-method",
          "mcp-name",
          "accept",
          "origin",
          "mcp-param-region",
          "authorization",
          "host",
        ),
        fc.constantFrom(
          "",
          "text/plain",
          "2025-11-25",
          "2099-01-01",
          "=?base64?ZWNobw?=",
          "=?base64?/w==?=",
          "tools/list",
          "null",
          "http://evil.example",
          "a@localhost",
          "user:pass@127.0.0.1",
          "x".repeat(4000),
          "é",
        ),
      )
      .map(([name, value]) => ({
        kind: `header ${name}`,
        apply: (h: Record<string, string>) => ({ headers: { ...h, [name]: value }, httpMethod: "POST" }),
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("GET", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE")
      .map((httpMethod) => ({ kind: `http ${httpMethod}`, apply: (h: Record<string, string>) => ({ headers: h, httpMethod }) })),
  },
);

function omit(headers: Record<string, string>, name: string): Record<string, string> {
  const { [name]: _dropped, ...rest } = headers;
  return rest;
}

/** The standard headers of a request, as a 2026-07-28 client sends them. */
function standardHeaders(message: Record<string, Json>): Record<string, string> {
  const params = (message.params ?? {}) as Record<string, Json>;
  const name = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
  const args = params.arguments as Record<string, Json> | undefined;
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PROTOCOL,
    "mcp-method": String(message.method),
    ...(name !== undefined && /^[\x20-\x7e]*$/.test(name) && { "mcp-name": name }),
    ...(typeof args?.region === "string" && { "mcp-param-region": args.region }),
  };
}

/** Every fuzz case: a base request, its mutations, then maybe text and header mutations. */
export const fuzzCase: fc.Arbitrary<FuzzCase> = fc
  .tuple(
    fc.nat({ max: 1_000_000 }),
    fc.constantFrom(...BASES),
    fc.array(mutation, { minLength: 1, maxLength: 3 }),
    textMutation,
    headerMutation,
  )
  .map(([id, base, mutations, text, header]) => {
    const params = {
      ...(base.params as Record<string, Json>),
      _meta: { ...ENVELOPE, ...((base.params as Record<string, Json>)._meta as object) },
    };
    const message: Record<string, Json> = {
      jsonrpc: "2.0",
      ...(!base.notification && { id: id % 2 === 0 ? id : `req-${id}` }),
      method: base.method,
      params: JSON.parse(JSON.stringify(params)) as Json,
    };
    const headers = standardHeaders(message);
    const kinds = mutations.map((m) => m(message));
    const json = JSON.stringify(message);
    const body = text ? text.apply(json) : json;
    if (text) kinds.push(text.kind);
    const http = header ? header.apply(headers, base.method) : { headers, httpMethod: "POST" };
    if (header) kinds.push(header.kind);
    return { kinds, body, message: text ? parseOrUndefined(body) : message, httpMethod: http.httpMethod, headers: http.headers };
  });

function parseOrUndefined(body: string | Buffer): unknown {
  try {
    return JSON.parse(body.toString());
  } catch {
    return undefined;
  }
}

/** `count` cases for `seed`, always the same ones. */
export function fuzzCases(seed: number, count: number): FuzzCase[] {
  return fc.sample(fuzzCase, { seed, numRuns: count });
}

/** A valid request that must always be answered: the sentinel after each case on a connection. */
export function sentinel(id: string): Record<string, unknown> {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { _meta: ENVELOPE, name: "ping", arguments: {} } };
}
