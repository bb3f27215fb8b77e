/*
 * Pins Roots:
 * - Roots.list builds { method: "roots/list", params: {} };
 * - Roots.response: missing (no entry, other keys only), answered with a copy of the
 *   ListRootsResult (unknown keys dropped, an empty list accepted), and -32602 "Invalid roots
 *   response" with data { key, reason } for a null entry, missing roots, non-file URIs and bad
 *   names, never echoing the value.
 */
import { McpError } from "../../../src/protocol/errors";
import type { InputRequest } from "../../../src/protocol/input-request";
import { Roots } from "../../../src/elicitation/roots";

const ctx = (inputResponses?: Record<string, unknown>) => ({ inputResponses });

function rejection(run: () => unknown): McpError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    return error as McpError;
  }
  throw new Error("expected a rejection");
}

describe("Roots", () => {
  it("builds the bare roots/list request", () => {
    const request = Roots.list();
    expect(request).toEqual({ method: "roots/list", params: {} });
    const wire: InputRequest = request;
    expect(wire.method).toBe("roots/list");
  });

  it("is missing without an entry", () => {
    expect(Roots.response(ctx(), "r", Roots.list())).toEqual({ status: "missing" });
    expect(Roots.response(ctx({ s: { roots: [] } }), "r")).toEqual({ status: "missing" });
  });

  it("returns the roots, unknown keys dropped", () => {
    const answer = Roots.response(
      ctx({ r: { roots: [{ uri: "file:///home/ada/project", name: "Project", extra: 1 }, { uri: "file:///tmp" }], extra: true } }),
      "r",
      Roots.list(),
    );
    expect(answer).toEqual({
      status: "answered",
      result: { roots: [{ uri: "file:///home/ada/project", name: "Project" }, { uri: "file:///tmp" }] },
    });
  });

  it("accepts an empty roots list", () => {
    expect(Roots.response(ctx({ r: { roots: [] } }), "r")).toEqual({ status: "answered", result: { roots: [] } });
  });

  it.each<[string, unknown, string]>([
    ["a null entry", null, "entry: not an object"],
    ["a missing roots array", {}, "roots: not an array"],
    ["roots as an object", { roots: { uri: "file:///x" } }, "roots: not an array"],
    ["a string root", { roots: ["file:///x"] }, "roots[0]: not an object"],
    ["an https root", { roots: [{ uri: "https://example.com/repo" }] }, "roots[0].uri: not a file:// URI"],
    ["a relative root", { roots: [{ uri: "/home/ada" }] }, "roots[0].uri: not a file:// URI"],
    ["a numeric uri", { roots: [{ uri: 7 }] }, "roots[0].uri: not a file:// URI"],
    ["a numeric name", { roots: [{ uri: "file:///a" }, { uri: "file:///b", name: 3 }] }, "roots[1].name: not a string"],
  ])("rejects %s", (_name, entry, reason) => {
    const error = rejection(() => Roots.response(ctx({ r: entry }), "r", Roots.list()));
    expect(error.code).toBe(-32602);
    expect(error.message).toBe("Invalid roots response");
    expect(error.data).toEqual({ key: "r", reason });
    expect(JSON.stringify(error.toJSON())).not.toContain("example.com");
  });
});
