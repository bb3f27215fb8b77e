/*
 * Pins the documented syntactic format checks (matchesFormat):
 * - email: one @, non-empty local part, dotted domain with non-empty labels, no whitespace;
 * - uri: absolute (scheme first), parseable by WHATWG URL, no whitespace or controls;
 * - date: YYYY-MM-DD naming a real calendar day, leap years included;
 * - date-time: RFC 3339 with a mandatory timezone, range-checked fields, leap second 60.
 */
import { matchesFormat } from "../../../src/schema/formats";

describe("matchesFormat", () => {
  it.each(["a@b.c", "first.last+tag@example.co.uk", "x@sub.example.org", "üser@exämple.de"])("email accepts %s", (value) => {
    expect(matchesFormat("email", value)).toBe(true);
  });
  it.each(["", "plain", "@example.com", "a@", "a@b", "a@@b.c", "a@b@c.d", "a@.b.c", "a@b.c.", "a@b..c", "a b@c.d", "a@b.c\n"])(
    "email rejects %j",
    (value) => expect(matchesFormat("email", value)).toBe(false),
  );

  it.each(["https://example.com", "http://x.y/path?q=1#f", "mailto:a@b.c", "urn:isbn:0451450523", "file:///tmp/x", "custom+app://thing"])(
    "uri accepts %s",
    (value) => expect(matchesFormat("uri", value)).toBe(true),
  );
  it.each([
    "",
    "example.com",
    "/relative/path",
    "//host/path",
    "1http://x",
    "https://exa mple.com",
    " https://example.com",
    "https://example.com\t",
    "http://[::1",
  ])("uri rejects %j", (value) => expect(matchesFormat("uri", value)).toBe(false));

  it.each(["2024-02-29", "2000-02-29", "1999-12-31", "2023-01-01", "2023-04-30"])("date accepts %s", (value) => {
    expect(matchesFormat("date", value)).toBe(true);
  });
  it.each([
    "2023-02-29",
    "1900-02-29",
    "2023-04-31",
    "2023-13-01",
    "2023-00-10",
    "2023-01-00",
    "2023-1-01",
    "23-01-01",
    "2023-01-01T00:00:00Z",
    "2023/01/01",
    " 2023-01-01",
  ])("date rejects %j", (value) => expect(matchesFormat("date", value)).toBe(false));

  it.each([
    "2024-02-29T12:30:00Z",
    "2024-01-01t00:00:00z",
    "2024-01-01T23:59:60Z",
    "2024-01-01T10:00:00.123456+05:30",
    "2024-01-01T10:00:00-00:00",
  ])("date-time accepts %s", (value) => expect(matchesFormat("date-time", value)).toBe(true));
  it.each([
    "2024-01-01T10:00:00", // no timezone
    "2024-01-01 10:00:00Z", // space separator
    "2024-01-01T24:00:00Z",
    "2024-01-01T10:60:00Z",
    "2024-01-01T10:00:61Z",
    "2024-01-01T10:00Z",
    "2023-02-29T10:00:00Z",
    "2024-01-01T10:00:00+24:00",
    "2024-01-01T10:00:00+05:60",
    "2024-01-01T10:00:00+0530",
    "2024-01-01T10:00:00.Z",
    "2024-01-01",
  ])("date-time rejects %j", (value) => expect(matchesFormat("date-time", value)).toBe(false));
});
