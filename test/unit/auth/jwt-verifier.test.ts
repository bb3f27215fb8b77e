// Pins jwtVerifier's key handling against a local JWKS server (no discovery: jwksUri given):
// - an unknown kid refetches the JWKS, at most once per jwksCooldownMs (a flood of made-up kids
//   costs one fetch), and the refusal is InvalidTokenError without token material in its reason
// - scopes come from `scope` (space-separated) or `scp` (an array), the principal facts from the claims
// - over HTTP a -32003 from the dispatcher (a task method) is 403 with the insufficient_scope challenge:
//   the entry's own (resource_metadata included) when it has OAuth, the bare one without
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type KeyLike } from "jose";
import { jwtVerifier } from "../../../src/auth/jwt-verifier";
import { InvalidTokenError } from "../../../src/auth/token-verifier";
import { httpStatusOf } from "../../../src/server/request/http-status";

describe("jwtVerifier keys", () => {
  let server: Server;
  let jwksUri: string;
  let fetches = 0;
  let key: KeyLike;
  let jwk: Record<string, unknown>;
  const issuer = "http://127.0.0.1:1";
  const resource = "http://127.0.0.1:2/mcp";

  beforeAll(async () => {
    const pair = await generateKeyPair("ES256");
    key = pair.privateKey;
    jwk = { ...(await exportJWK(pair.publicKey)), kid: "known", alg: "ES256", use: "sig" };
    server = createServer((_req, res) => {
      fetches++;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    jwksUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const sign = (kid: string, claims: Record<string, unknown> = {}) =>
    new SignJWT({ scope: "a b", ...claims })
      .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid })
      .setIssuer(issuer)
      .setSubject("s1")
      .setAudience(resource)
      .setExpirationTime("5m")
      .sign(key);

  it("refetches for an unknown kid at most once per cooldown", async () => {
    const verifier = jwtVerifier({ issuer, jwksUri, jwksCooldownMs: 60_000 });
    fetches = 0;
    const granted = await verifier.verify(await sign("known"), { resource });
    expect(granted).toMatchObject({ scopes: ["a", "b"], issuer, subject: "s1" });
    expect(fetches).toBe(1);
    for (let i = 0; i < 20; i++) {
      const token = await sign(`made-up-${i}`);
      const refusal = await verifier.verify(token, { resource }).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(InvalidTokenError);
      expect((refusal as InvalidTokenError).reason).toBe("ERR_JWKS_NO_MATCHING_KEY");
    }
    expect(fetches).toBe(1);
  });

  it("reads scp as an array (Entra, Okta)", async () => {
    const verifier = jwtVerifier({ issuer, jwksUri });
    const granted = await verifier.verify(await sign("known", { scope: undefined, scp: ["x", "y"] }), { resource });
    expect(granted.scopes).toEqual(["x", "y"]);
  });

  it("answers a -32003 over HTTP 403 with the insufficient_scope challenge", () => {
    expect(httpStatusOf(-32003, { requiredScopes: ["a", "b"] })).toEqual({
      status: 403,
      headers: { "www-authenticate": 'Bearer error="insufficient_scope", scope="a b"' },
    });
  });

  it("answers it with the entry's challenge when the entry has one, scopes that are no scope token left out", () => {
    const challenge = (required: readonly string[]) =>
      `Bearer error="insufficient_scope", resource_metadata="m", scope="${required.join(" ")}"`;
    expect(httpStatusOf(-32003, { requiredScopes: ["a", 'b"', "c"] }, challenge)).toEqual({
      status: 403,
      headers: { "www-authenticate": 'Bearer error="insufficient_scope", resource_metadata="m", scope="a c"' },
    });
  });
});
