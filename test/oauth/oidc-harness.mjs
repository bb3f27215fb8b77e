/* global process, console */
// A real OAuth 2.1 authorization server for the tests: oidc-provider on 127.0.0.1, issuing JWT
// access tokens (RFC 9068) for the resource indicator (RFC 8707) by client credentials.
// Run as a child process (oidc-provider is ESM-only): argv[2] is the port (0: a free one).
// Prints one JSON line: { issuer, clientId, clientSecret, introspector, oddIntrospector, signingKey } (the private JWK, so a test
// can forge tokens the real server never issued: expired, another issuer). On stdin, "rotate"
// replaces the signing key with a new one (another kid) at the same issuer and prints the new
// line; "exit" ends the process.
import { createServer } from "node:http";
import { createInterface } from "node:readline";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

const SCOPES = ["preferences", "preferences:read", "preferences:admin", "other"];
const clientId = "mcp-test-client";
const clientSecret = "a-test-client-secret-of-enough-length-000000";
const introspector = { id: "mcp-resource-server", secret: "the-resource-server-secret-of-length-0000" };
// A second resource server whose id and secret hold what form-urlencoding changes (RFC 6749
// section 2.3.1): space, +, %, :, &, =, /, ?, #, quotes, parentheses, !, ~, *.
const oddIntrospector = { id: "mcp resource:server+1", secret: "a secret + 100% : & = / ? # 'q' \"dq\" (p) ! ~ * -._ 0123" };

let handler = (_req, res) => res.writeHead(503).end();
const server = createServer((req, res) => handler(req, res));
await new Promise((resolve) => server.listen(Number(process.argv[2] ?? 0), "127.0.0.1", resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

async function start() {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = {
    ...(await exportJWK(privateKey)),
    kid: `k-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    alg: "RS256",
    use: "sig",
  };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
        scope: SCOPES.join(" "),
        token_endpoint_auth_method: "client_secret_basic",
      },
      { client_id: introspector.id, client_secret: introspector.secret, grant_types: [], redirect_uris: [], response_types: [] },
      { client_id: oddIntrospector.id, client_secret: oddIntrospector.secret, grant_types: [], redirect_uris: [], response_types: [] },
    ],
    jwks: { keys: [jwk] },
    scopes: SCOPES,
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => ({
          scope: SCOPES.join(" "),
          audience: resourceIndicator,
          accessTokenTTL: 300,
          accessTokenFormat: process.env.OIDC_OPAQUE === "1" ? "opaque" : "jwt",
          jwt: { sign: { alg: "RS256" } },
        }),
      },
    },
  });
  provider.on("server_error", (_ctx, error) => console.error(`server_error: ${error.message}`));
  handler = provider.callback();
  console.log(JSON.stringify({ issuer, clientId, clientSecret, introspector, oddIntrospector, signingKey: jwk }));
}

await start();
createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "rotate") void start();
  if (line.trim() === "exit") server.close(() => process.exit(0));
});
process.stdin.on("end", () => process.exit(0));
