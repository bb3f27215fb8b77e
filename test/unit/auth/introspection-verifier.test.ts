// Pins introspectionVerifier's client authentication against a local introspection endpoint that
// records what it is sent (oidc-provider, in test/e2e/oauth-introspection.e2e.test.ts, decodes
// either encoding, so only the wire tells them apart):
// - the client id and secret travel in HTTP Basic, each form-urlencoded first (RFC 6749 section
//   2.3.1, appendix B): RFC 6749's own example (" %&+£€" is "+%25%26%2B%C2%A3%E2%82%AC"), a space
//   is "+" (not "%20"), `!'()~` are percent-encoded, `:` in either is "%3A", `*-._` stay as they are;
// - the request is a form POST of the token with token_type_hint access_token;
// - a client id or secret that is not a non-empty string (or has a lone surrogate) is a TypeError
//   naming the option, at construction.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { introspectionVerifier } from "../../../src/auth/introspection-verifier";
import { InvalidTokenError } from "../../../src/auth/token-verifier";

describe("introspectionVerifier client authentication", () => {
  let server: Server;
  let endpoint: string;
  const seen: { headers: IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        seen.push({ headers: req.headers, body });
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ active: false }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/introspect`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** The Basic credentials one introspection with this client id and secret sends, decoded from base64 only. */
  async function basicSent(clientId: string, clientSecret: string): Promise<string> {
    const verifier = introspectionVerifier({ issuer: "http://127.0.0.1:1", endpoint, clientId, clientSecret });
    await expect(verifier.verify("opaque-token", { resource: "http://127.0.0.1:2/mcp" })).rejects.toBeInstanceOf(InvalidTokenError);
    const authorization = seen[seen.length - 1]!.headers.authorization!;
    expect(authorization).toMatch(/^Basic [A-Za-z0-9+/]+=*$/);
    return Buffer.from(authorization.slice(6), "base64").toString("utf8");
  }

  it("form-urlencodes the client id and secret before Basic, as RFC 6749 section 2.3.1 says", async () => {
    // RFC 6749 appendix B's example value.
    expect(await basicSent("resource-server", " %&+£€")).toBe("resource-server:+%25%26%2B%C2%A3%E2%82%AC");
    expect(await basicSent("1PpG/Q 1", "z/tZ9VwFZqApmIQ+ZH1I5pLk/uB4ud:X2/8bL+wfFTt1rFw=")).toBe(
      "1PpG%2FQ+1:z%2FtZ9VwFZqApmIQ%2BZH1I5pLk%2FuB4ud%3AX2%2F8bL%2BwfFTt1rFw%3D",
    );
    expect(await basicSent("id:with:colons", "it's (a) secret! ~*-._")).toBe("id%3Awith%3Acolons:it%27s+%28a%29+secret%21+%7E*-._");
  });

  it("posts the token as a form with its type hint", async () => {
    await basicSent("resource-server", "secret");
    const { headers, body } = seen[seen.length - 1]!;
    expect(headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(body))).toEqual({ token: "opaque-token", token_type_hint: "access_token" });
  });

  it("refuses a client id or secret that is not a non-empty string, naming the option", () => {
    const make = (clientId: unknown, clientSecret: unknown) => () =>
      introspectionVerifier({ issuer: "http://127.0.0.1:1", endpoint, clientId: clientId as string, clientSecret: clientSecret as string });
    expect(make("", "secret")).toThrow(/option `clientId` must be a non-empty string/);
    expect(make(undefined, "secret")).toThrow(/option `clientId` must be a non-empty string/);
    expect(make("id", "")).toThrow(/option `clientSecret` must be a non-empty string/);
    expect(make("id", 42)).toThrow(TypeError);
    expect(make("id", "lone \ud800 surrogate")).toThrow(/option `clientSecret`.*lone surrogates/);
    expect(make("id", "paired \ud83d\ude00 emoji")).not.toThrow();
  });
});
