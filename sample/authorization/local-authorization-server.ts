// A local OAuth 2.1 authorization server for developing and testing a secured MCP server:
// oidc-provider on 127.0.0.1, issuing JWT access tokens (RFC 9068) by client credentials, only for
// the MCP servers it knows (RFC 8707 resource indicators). `npm run start:auth-server`, then
// `OAUTH_ISSUER=http://127.0.0.1:4000 npm run start:secured`. For development only: its signing
// key lives as long as the process, and it has no login page (see docs/authorization.md).
//
//   AUTH_PORT       its port (default 4000; 0 takes a free one). The first stdout line holds the issuer.
//   MCP_RESOURCES   the canonical URIs of the MCP servers it issues tokens for, comma-separated
//                   (default http://localhost:3000/mcp, what `npm run start:secured` serves)
//   MCP_SCOPES      the scopes a client may ask for (default preferences preferences:read preferences:admin)
//   CLIENT_ID, CLIENT_SECRET   the one client (default mcp-dev-client and a random secret, printed)
import { randomBytes } from "node:crypto";
import { createServer, type RequestListener } from "node:http";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { errors } from "oidc-provider";
import { closeOnSignal } from "../close-on-signal";

async function main(): Promise<void> {
  const port = Number(process.env.AUTH_PORT || 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new RangeError(`AUTH_PORT must be an integer from 0 to 65535, got ${JSON.stringify(process.env.AUTH_PORT)}`);
  const resources = (process.env.MCP_RESOURCES || "http://localhost:3000/mcp").split(",").map((uri) => uri.trim());
  const scopes = (process.env.MCP_SCOPES || "preferences preferences:read preferences:admin").split(/\s+/).filter(Boolean);
  const clientId = process.env.CLIENT_ID || "mcp-dev-client";
  const clientSecret = process.env.CLIENT_SECRET || randomBytes(24).toString("base64url");

  // The issuer is known once the port is: listen first, hand requests to the provider after.
  let handle: RequestListener = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
        scope: scopes.join(" "),
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: randomBytes(8).toString("hex"), alg: "RS256", use: "sig" }] },
    scopes,
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // A token names one MCP server: the client asks with resource=<its canonical URI>.
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (!resources.includes(resource)) throw new errors.InvalidTarget(`this server issues no tokens for ${resource}`);
          return {
            scope: scopes.join(" "),
            audience: resource,
            accessTokenTTL: 600,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: "RS256" } },
          };
        },
      },
    },
  });
  handle = provider.callback();

  console.log(`local authorization server listening on ${issuer}`);
  console.log(`client ${clientId}, secret ${clientSecret}; tokens for ${resources.join(", ")}; scopes ${scopes.join(" ")}`);
  console.log(
    `a token: curl -s -u '${clientId}:${clientSecret}' -d grant_type=client_credentials ` +
      `-d 'scope=${scopes.join(" ")}' -d resource=${resources[0]} ${issuer}/token`,
  );
  closeOnSignal({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
