// Pins authorization server discovery and the URL rules of the verifiers:
// - the well-known URLs in the spec's order, for an issuer without a path and with one
//   (Keycloak's /realms/x, Entra's /<tenant>/v2.0): RFC 8414 inserted, OIDC inserted, OIDC appended
// - metadata whose issuer is not the configured one is refused (mix-up), and a 404 moves on to the next URL
// - https only, except loopback hosts or allowInsecure
// - the path-aware protected resource metadata URL; never offline_access in scopes_supported
// - the scope hierarchy is transitive and survives cycles
// - the principal of a verified token is "<iss>#<sub>" ("<iss>#<client_id>" without sub), or auth.principal's
// - auth without an authorization server, or with a resource URI that has a fragment, is refused at start-up
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { discoverMetadata, discoveryUrls } from "../../../src/auth/authorization-server-metadata";
import { jwtVerifier } from "../../../src/auth/jwt-verifier";
import { protectedResourceMetadata, protectedResourceMetadataUrl } from "../../../src/auth/protected-resource-metadata";
import { secureUrl } from "../../../src/auth/secure-url";
import { BearerAuth } from "../../../src/auth/bearer-auth";
import { MemoryLogger } from "../../../src/testing/index";
import { ScopeHierarchy } from "../../../src/features/scope-hierarchy";

describe("authorization server discovery", () => {
  it("lists the well-known URLs in the spec's order", () => {
    expect(discoveryUrls("https://auth.example.com")).toEqual([
      "https://auth.example.com/.well-known/oauth-authorization-server",
      "https://auth.example.com/.well-known/openid-configuration",
    ]);
    expect(discoveryUrls("https://kc.example.com/realms/mcp")).toEqual([
      "https://kc.example.com/.well-known/oauth-authorization-server/realms/mcp",
      "https://kc.example.com/.well-known/openid-configuration/realms/mcp",
      "https://kc.example.com/realms/mcp/.well-known/openid-configuration",
    ]);
    expect(discoveryUrls("https://login.microsoftonline.com/0000-tenant/v2.0")[2]).toBe(
      "https://login.microsoftonline.com/0000-tenant/v2.0/.well-known/openid-configuration",
    );
  });

  describe("against a local server", () => {
    let server: Server;
    let base: string;
    const served: string[] = [];
    let answer: (path: string) => unknown = () => undefined;
    beforeAll(async () => {
      server = createServer((req, res) => {
        served.push(req.url!);
        const body = answer(req.url!);
        if (body === undefined) return void res.writeHead(404).end();
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));
    beforeEach(() => (served.length = 0));

    it("falls through to OpenID Connect appended for an issuer with a path", async () => {
      const issuer = `${base}/realms/mcp`;
      answer = (path) => (path === "/realms/mcp/.well-known/openid-configuration" ? { issuer, jwks_uri: `${issuer}/certs` } : undefined);
      expect((await discoverMetadata(issuer)).jwks_uri).toBe(`${issuer}/certs`);
      expect(served).toEqual([
        "/.well-known/oauth-authorization-server/realms/mcp",
        "/.well-known/openid-configuration/realms/mcp",
        "/realms/mcp/.well-known/openid-configuration",
      ]);
    });

    it("refuses metadata naming another issuer", async () => {
      answer = () => ({ issuer: "https://honest.example" });
      await expect(discoverMetadata(base)).rejects.toThrow(
        `authorization server metadata at ${base}/.well-known/oauth-authorization-server names issuer "https://honest.example", not the configured "${base}"`,
      );
    });

    it("says which URLs it tried when none answers", async () => {
      answer = () => undefined;
      await expect(discoverMetadata(base)).rejects.toThrow(`no authorization server metadata found for issuer ${base}`);
    });
  });
});

describe("URL rules", () => {
  it("takes https, and http only on loopback or with allowInsecure", () => {
    expect(secureUrl("https://a.example/x", "it").href).toBe("https://a.example/x");
    for (const ok of ["http://localhost:1", "http://127.0.0.1:1", "http://[::1]:1"]) expect(() => secureUrl(ok, "it")).not.toThrow();
    expect(() => secureUrl("http://a.example", "the issuer")).toThrow(/^the issuer must use https/);
    expect(() => secureUrl("http://a.example", "it", true)).not.toThrow();
    expect(() => jwtVerifier({ issuer: "http://auth.example" })).toThrow(/^jwtVerifier: issuer must use https/);
    expect(() => jwtVerifier({ issuer: "https://auth.example", algorithms: ["HS256"] })).toThrow(/HS256" is not allowed/);
    expect(() => jwtVerifier({ issuer: "https://auth.example", algorithms: ["none"] })).toThrow(/"none" is not allowed/);
  });

  it("places the protected resource metadata after the host, path kept", () => {
    expect(protectedResourceMetadataUrl("https://mcp.example.com/public/mcp")).toBe(
      "https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp",
    );
    expect(protectedResourceMetadataUrl("https://mcp.example.com")).toBe("https://mcp.example.com/.well-known/oauth-protected-resource");
    expect(
      protectedResourceMetadata({ resource: "r", authorizationServers: ["a"], scopes: ["x", "offline_access"] }).scopes_supported,
    ).toEqual(["x"]);
  });
});

describe("ScopeHierarchy", () => {
  it("grants implied scopes transitively, through cycles", () => {
    const hierarchy = new ScopeHierarchy({ all: ["files"], files: ["files:read", "files:write"], "files:write": ["all"] });
    const token = { scopes: ["files"], claims: {} };
    expect([...hierarchy.effective(token)].sort()).toEqual(["all", "files", "files:read", "files:write"]);
    expect(hierarchy.allows(["files:read", "files:write"], token)).toBe(true);
    expect(hierarchy.allows(["other"], token)).toBe(false);
    expect(hierarchy.allows(["other"], undefined)).toBe(true);
    expect(hierarchy.allows(["files"], { scopes: ["files:read"], claims: {} })).toBe(false);
  });
});

describe("BearerAuth configuration", () => {
  const verifier = { verify: async () => ({ scopes: [], claims: {} }) };
  const scopes = { declared: [], hierarchy: [] };
  it("refuses auth without an authorization server", () => {
    expect(() => new BearerAuth({ verifier }, scopes, new MemoryLogger())).toThrow(
      "auth.authorizationServers must list at least one issuer (the protected resource metadata needs one)",
    );
    expect(
      () =>
        new BearerAuth(
          { verifier, authorizationServers: ["https://as.example"], resource: "https://mcp.example/mcp#x" },
          scopes,
          new MemoryLogger(),
        ),
    ).toThrow('auth.resource must not have a fragment (RFC 8707), got "https://mcp.example/mcp#x"');
    expect(
      () =>
        new BearerAuth(
          { verifier, authorizationServers: ["https://as.example"], resource: "http://mcp.example/mcp" },
          scopes,
          new MemoryLogger(),
        ),
    ).toThrow(/^auth.resource must use https/);
  });
});

describe("BearerAuth principal", () => {
  const scopes = { declared: [], hierarchy: [] };
  const verifierOf = (granted: object) => ({ issuer: "https://as.example", verify: async () => ({ scopes: [], claims: {}, ...granted }) });
  it("is <iss>#<sub> by default, <iss>#<client_id> without sub, or the mapping's", async () => {
    const check = (auth: BearerAuth) => auth.check(["Bearer abc"], undefined, "https://mcp.example/mcp");
    expect(
      await check(new BearerAuth({ verifier: verifierOf({ issuer: "https://as.example", subject: "u1" }) }, scopes, new MemoryLogger())),
    ).toMatchObject({
      kind: "authorized",
      principal: "https://as.example#u1",
    });
    expect(
      await check(new BearerAuth({ verifier: verifierOf({ issuer: "https://as.example", clientId: "c1" }) }, scopes, new MemoryLogger())),
    ).toMatchObject({
      principal: "https://as.example#c1",
    });
    const mapped = new BearerAuth(
      { verifier: verifierOf({ subject: "u1" }), principal: (a) => `user:${a.subject}` },
      scopes,
      new MemoryLogger(),
    );
    expect(await check(mapped)).toMatchObject({ principal: "user:u1" });
  });
});
