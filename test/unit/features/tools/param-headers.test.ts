// Pins the Mcp-Param-* checks of tools/call over HTTP (SEP-2243, DIGEST §5.3):
// - decodeHeaderValue: `=?base64?...?=` is decoded strictly (padding, alphabet, valid UTF-8);
//   anything else, including a half wrapper, is literal; CR/LF is refused;
// - checkParamHeaders: a present argument needs its header and the decoded value must match
//   (strings exactly and case-sensitively, integers numerically, booleans as true/false);
//   a header without its argument is refused; null or absent arguments need no header;
//   header names are looked up in lower case; the message names the header, never the value.
import { checkParamHeaders, decodeHeaderValue } from "../../../../src/features/tools/param-headers";
import type { ToolDefinition } from "../../../../src/features/tools/tool-definition";

const tool = {
  headerParams: [
    { property: "region", header: "Region", type: "string" },
    { property: "priority", header: "Priority", type: "integer" },
    { property: "dryRun", header: "Dry-Run", type: "boolean" },
  ],
} as unknown as ToolDefinition;

const b64 = (text: string) => `=?base64?${Buffer.from(text, "utf8").toString("base64")}?=`;

function check(args: unknown, headers: Record<string, string>): string | undefined {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return checkParamHeaders(tool, args, (name) => lower[name]);
}

describe("decodeHeaderValue", () => {
  it.each([
    ["plain", "plain"],
    [b64("Hello"), "Hello"],
    [b64("Zürich ✓"), "Zürich ✓"],
    [b64(" padded "), " padded "],
    ["=?base64??=", ""],
    ["SGVsbG8=", "SGVsbG8="],
    ["=?base64?SGVsbG8=", "=?base64?SGVsbG8="],
    ["SGVsbG8=?=", "SGVsbG8=?="],
    ["=?BASE64?SGVsbG8=?=", "=?BASE64?SGVsbG8=?="],
  ])("reads %j as %j", (raw, decoded) => {
    expect(decodeHeaderValue(raw)).toBe(decoded);
  });

  it.each([
    ["missing padding", "=?base64?SGVsbG8?="],
    ["characters outside the alphabet", "=?base64?SGVs!!!bG8=?="],
    ["URL-safe alphabet", "=?base64?-_-_?="],
    ["bytes that are not UTF-8", `=?base64?${Buffer.from([0xff, 0xfe, 0xfd]).toString("base64")}?=`],
    ["a line break", "a\r\nb"],
  ])("refuses %s", (_why, raw) => {
    expect(decodeHeaderValue(raw)).toBeUndefined();
  });
});

describe("checkParamHeaders", () => {
  it("accepts headers that match the arguments", () => {
    expect(
      check(
        { region: "eu-west", priority: 7, dryRun: false },
        { "Mcp-Param-Region": "eu-west", "Mcp-Param-Priority": "7", "Mcp-Param-Dry-Run": "false" },
      ),
    ).toBeUndefined();
  });

  it("accepts a Base64-wrapped value and compares integers numerically", () => {
    expect(check({ region: "Zürich", priority: 7 }, { "Mcp-Param-Region": b64("Zürich"), "Mcp-Param-Priority": "007" })).toBeUndefined();
  });

  it("needs no header for absent or null arguments", () => {
    expect(check({}, {})).toBeUndefined();
    expect(check({ region: null }, {})).toBeUndefined();
    expect(check(undefined, {})).toBeUndefined();
  });

  it.each([
    ["a missing header", { region: "eu" }, {}, /Mcp-Param-Region header missing/],
    ["a different string", { region: "eu" }, { "Mcp-Param-Region": "us" }, /does not match argument "region"/],
    ["a different case", { region: "eu" }, { "Mcp-Param-Region": "EU" }, /does not match/],
    ["an invalid Base64 value", { region: "Hello" }, { "Mcp-Param-Region": "=?base64?SGVsbG8?=" }, /invalid Base64/],
    ["a non-integer for an integer", { priority: 7 }, { "Mcp-Param-Priority": "7.0" }, /does not match argument "priority"/],
    ["a different integer", { priority: 7 }, { "Mcp-Param-Priority": "8" }, /does not match/],
    ["a boolean spelled otherwise", { dryRun: true }, { "Mcp-Param-Dry-Run": "TRUE" }, /does not match argument "dryRun"/],
    ["a string where the body has a number", { region: 5 }, { "Mcp-Param-Region": "5" }, /does not match/],
    ["a header without its argument", {}, { "Mcp-Param-Region": "eu" }, /sent but argument "region" is absent/],
  ])("refuses %s", (_why, args, headers, message) => {
    expect(check(args, headers as Record<string, string>)).toMatch(message);
  });

  it("names the header and the argument, never a value", () => {
    const problem = check({ region: "body-value-123" }, { "Mcp-Param-Region": "header-value-456" });
    expect(problem).toBe('Mcp-Param-Region does not match argument "region"');
  });
});
