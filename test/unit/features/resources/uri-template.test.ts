// Pins UriTemplate (RFC 6570 level 1, simple {name} expansion), compiled once per template:
// - it lists its variables in order; match() returns them percent-decoded, or undefined when the
//   URI does not fit (a literal differs, a value is empty or crosses '/', '?' or '#', or has a
//   broken percent-encoding)
// - literal characters that are special in regular expressions match only themselves
// - expand() percent-encodes values, so expand and match are inverses
// - anything beyond simple expansions, a repeated variable and unbalanced braces are refused
// - beside the official SDK's UriTemplate (what its comment says): the same variables for plain
//   values, but the SDK's leaves them percent-encoded where ours decodes them
import { UriTemplate as SdkUriTemplate } from "@modelcontextprotocol/server";
import { UriTemplate } from "../../../../src/features/resources/uri-template";

describe("UriTemplate", () => {
  const notes = new UriTemplate("notes://{folder}/{id}");

  it("lists its variables and matches URIs of its shape", () => {
    expect(notes.variables).toEqual(["folder", "id"]);
    expect(notes.match("notes://ideas/42")).toEqual({ folder: "ideas", id: "42" });
    expect(notes.match("notes://in%20box/a%2Fb")).toEqual({ folder: "in box", id: "a/b" });
  });

  it.each([
    ["another scheme", "memo://ideas/42"],
    ["an empty value", "notes:///42"],
    ["a value crossing a slash", "notes://a/b/c"],
    ["a query", "notes://ideas/42?x=1"],
    ["a fragment", "notes://ideas/42#top"],
    ["a broken percent-encoding", "notes://ideas/%E0%A4%A"],
  ])("does not match %s", (_label, uri) => {
    expect(notes.match(uri)).toBeUndefined();
  });

  it("matches literal regular-expression characters only as themselves", () => {
    const dotted = new UriTemplate("file:///a.b+c/{name}.txt");
    expect(dotted.match("file:///a.b+c/readme.txt")).toEqual({ name: "readme" });
    expect(dotted.match("file:///aXb+c/readme.txt")).toBeUndefined();
    expect(dotted.match("file:///a.bbc/readme.txt")).toBeUndefined();
  });

  it("expands with percent-encoded values, the inverse of match", () => {
    const uri = notes.expand({ folder: "in box", id: "a/b?" });
    expect(uri).toBe("notes://in%20box/a%2Fb%3F");
    expect(notes.match(uri)).toEqual({ folder: "in box", id: "a/b?" });
  });

  it.each([
    ["notes://{+path}", "only simple {name} expansions are supported, found {+path}"],
    ["notes://{a,b}", "only simple {name} expansions are supported, found {a,b}"],
    ["notes://{}", "only simple {name} expansions are supported, found {}"],
    ["notes://{id}/{id}", "variable {id} appears twice"],
    ["notes://{id}}", "unbalanced braces"],
    ["notes://{id", "unbalanced braces"],
  ])("refuses %s", (template, problem) => {
    expect(() => new UriTemplate(template)).toThrow(`uriTemplate "${template}": ${problem}`);
  });

  it("matches as the SDK's UriTemplate does, but decodes the values the SDK leaves encoded", () => {
    const ours = new UriTemplate("weather://{city}/{day}");
    const sdk = new SdkUriTemplate("weather://{city}/{day}");
    expect(ours.match("weather://Lyon/monday")).toEqual(sdk.match("weather://Lyon/monday"));
    const uri = ours.expand({ city: "New York", day: "d\u00e9but" });
    expect(ours.match(uri)).toEqual({ city: "New York", day: "d\u00e9but" });
    expect(sdk.match(uri)).toEqual({ city: "New%20York", day: "d%C3%A9but" });
  });
});
