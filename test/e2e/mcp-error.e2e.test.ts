// Pins what the McpError doc comment promises, in-process (2026-07-28, and a 2025-era request with
// no envelope) and over HTTP (where the status is part of the promise):
// - a thrown McpError from a tool reaches the client as { code, message, data }, verbatim, data
//   left out when undefined; the HTTP status is 200
// - the SDK's rewrites: -32002 becomes -32602 (data kept); a code that is not a safe integer
//   becomes -32603
// - -32021 thrown by a component is answered with HTTP 400
import "reflect-metadata";
import { IsString } from "class-validator";
import { Arg, ErrorCode, McpError, Tool } from "../../src/index";
import { createHttpTestClient, createTestClient, type TestClient } from "../../src/testing/index";

class Which {
  @IsString() kind!: string;
}

const THROWN: Record<string, McpError> = {
  custom: new McpError(-33000, "Forbidden here", { who: "you" }),
  bare: new McpError(ErrorCode.InvalidParams, "No data"),
  legacy: new McpError(-32002, "Resource not found", { uri: "notes://9" }),
  fractional: new McpError(1.5, "Odd code"),
  capability: new McpError(ErrorCode.MissingRequiredClientCapability, "Missing required client capability", {
    requiredCapabilities: { sampling: {} },
  }),
};

class Thrower {
  @Tool()
  fail(@Arg() args: Which) {
    throw THROWN[args.kind];
  }
}

describe.each([
  ["in-process", "2026", () => createTestClient([Thrower])],
  ["in-process", "2025", () => createTestClient([Thrower])],
  ["http", "2026", () => createHttpTestClient([Thrower])],
] as const)("a thrown McpError %s, %s era", (boundary, era, open) => {
  let client: TestClient;
  beforeAll(async () => {
    client = await open();
  });
  afterAll(() => client.close());

  const fail = async (kind: string) => {
    const round = await client.exchange("tools/call", {
      _meta: era === "2026" ? client.meta() : undefined,
      name: "fail",
      arguments: { kind },
    });
    return { error: round.response.error, status: round.http?.status };
  };
  const ok = boundary === "http" ? 200 : undefined;

  it("reaches the client as its code, message and data, verbatim", async () => {
    expect(await fail("custom")).toEqual({ error: { code: -33000, message: "Forbidden here", data: { who: "you" } }, status: ok });
    expect(await fail("bare")).toEqual({ error: { code: -32602, message: "No data" }, status: ok });
  });

  it("has -32002 rewritten to -32602, and a code that is not a safe integer to -32603", async () => {
    expect(await fail("legacy")).toEqual({
      error: { code: -32602, message: "Resource not found", data: { uri: "notes://9" } },
      status: ok,
    });
    expect(await fail("fractional")).toEqual({ error: { code: -32603, message: "Odd code" }, status: ok });
  });

  it("answers -32021 with HTTP 400", async () => {
    const { error, status } = await fail("capability");
    // What this level adds is the status; the error passes through as thrown (pinned above for every code).
    expect(error?.code).toBe(-32021);
    expect(status).toBe(boundary === "http" ? 400 : undefined);
  });
});
