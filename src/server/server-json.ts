import type { JsonObject } from "../protocol/wire-types";
import { MCP_NAME, type AppInfo, type EnvironmentVariable, type Repository } from "./request/app-info";

/** The `server.json` schema the function writes (the MCP Registry's, 2025-12-11). */
export const SERVER_JSON_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/** The fields of a package.json that `serverJson` reads. */
export interface PackageJson {
  readonly name?: string;
  readonly version?: string;
  readonly description?: string;
  /** The name in the MCP Registry; the registry proves npm ownership by finding it here. */
  readonly mcpName?: string;
  readonly homepage?: string;
  readonly repository?: string | { readonly type?: string; readonly url?: string; readonly directory?: string };
}

/** A remote the server is deployed at (`remotes[]`): its public Streamable HTTP URL. */
export interface ServerJsonRemote {
  readonly url: string;
  /** The endpoint requires a bearer token: the remote lists a required, secret `Authorization` header. Default false. */
  readonly oauth?: boolean;
}

/** How the server is run and reached, beside what the app and package.json say. */
export interface ServerJsonOptions {
  /**
   * The npm package as hosts run it (`packages[0]`): `"stdio"` (the default: the package's bin
   * serves stdin/stdout), `{ url }` for a package that serves Streamable HTTP on that local URL
   * when run, or `false` for a server published only as remotes.
   */
  readonly package?: "stdio" | { readonly url: string } | false;
  /** Where the server is deployed, each a public Streamable HTTP URL or `{ url, oauth }`. */
  readonly remotes?: readonly (string | ServerJsonRemote)[];
}

/** Why a `server.json` cannot be written from this app and package.json: the message names the field and the fix. */
export class ServerJsonError extends Error {
  override name = "ServerJsonError";
}

const VERSION_RANGE = /[\^~><=*|x ]|^latest$/i;

function repositoryOf(pkg: PackageJson): Repository | undefined {
  const given = typeof pkg.repository === "string" ? { url: pkg.repository } : pkg.repository;
  let url = given?.url;
  if (url === undefined) return undefined;
  url = url.replace(/^git\+/, "").replace(/\.git$/, "");
  const short = /^(github|gitlab|bitbucket):([\w.-]+\/[\w.-]+)$/.exec(url) ?? /^([\w.-]+\/[\w.-]+)$/.exec(url);
  if (short !== null)
    url =
      short.length === 3 ? `https://${short[1]}.${short[1] === "bitbucket" ? "org" : "com"}/${short[2]}` : `https://github.com/${short[1]}`;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return undefined;
  }
  const source = host === "github.com" ? "github" : host === "gitlab.com" ? "gitlab" : (host.split(".").slice(-2, -1)[0] ?? host);
  const subfolder = typeof pkg.repository === "object" ? pkg.repository.directory : undefined;
  return { url, source, ...(subfolder !== undefined && { subfolder }) };
}

function input(variable: EnvironmentVariable): JsonObject {
  const { name, description, isRequired, isSecret, default: fallback, placeholder, format, choices } = variable;
  return {
    name,
    ...(description !== undefined && { description }),
    ...(format !== undefined && { format }),
    ...(isRequired !== undefined && { isRequired }),
    ...(isSecret !== undefined && { isSecret }),
    ...(fallback !== undefined && { default: fallback }),
    ...(placeholder !== undefined && { placeholder }),
    ...(choices !== undefined && { choices: [...choices] }),
  };
}

function remoteOf(remote: string | ServerJsonRemote, index: number): JsonObject {
  const { url, oauth } = typeof remote === "string" ? { url: remote, oauth: false } : remote;
  if (typeof url !== "string" || !/^https?:\/\/[^\s]+$/.test(url))
    throw new ServerJsonError(`remotes[${index}]: url must be the deployed server's http(s) URL, got ${JSON.stringify(url)}`);
  const authorization = {
    name: "Authorization",
    description: "An OAuth 2.1 bearer token for this server",
    isRequired: true,
    isSecret: true,
  };
  return { type: "streamable-http", url, ...(oauth === true && { headers: [authorization] }) };
}

/**
 * The app's `server.json` for the MCP Registry (schema 2025-12-11): its identity from the app
 * (title, description, icons, websiteUrl, repository: package.json's when the app gives none),
 * the name from package.json's `mcpName` (the registry proves ownership of the npm package by it),
 * the npm package with its transport and every environment variable the app declares (its
 * `environment`, and `state.keysFromEnv`'s as required and secret), and the remotes it is
 * deployed at. Refused with a `ServerJsonError` naming the fix when `mcpName` is missing or not
 * reverse-DNS, differs from the app's `mcpName`, or a required field is missing or too long.
 *
 * @example writeFileSync("server.json", JSON.stringify(serverJson(app, packageJson, { remotes: ["https://mcp.example.com/mcp"] }), null, 2));
 */
export function serverJson(app: { readonly info: AppInfo }, packageJson: PackageJson, options: ServerJsonOptions = {}): JsonObject {
  const { info } = app;
  const pkg = packageJson;
  const mcpName = pkg.mcpName;
  if (mcpName === undefined)
    throw new ServerJsonError(
      `package.json has no mcpName: add "mcpName": "${info.mcpName ?? "io.github.<user>/<server>"}" (reverse-DNS; the MCP Registry finds it in the published package to prove you own it)`,
    );
  if (typeof mcpName !== "string" || !MCP_NAME.test(mcpName) || mcpName.length > 200)
    throw new ServerJsonError(
      `package.json's mcpName must be reverse-DNS with one slash, such as "io.github.<user>/<server>" or "com.example/<server>", got ${JSON.stringify(mcpName)}`,
    );
  if (info.mcpName !== undefined && info.mcpName !== mcpName)
    throw new ServerJsonError(`package.json's mcpName "${mcpName}" differs from the app's mcpName "${info.mcpName}": make them the same`);
  const description = info.description ?? pkg.description;
  const length = description === undefined ? 0 : [...description].length;
  if (length < 1 || length > 100)
    throw new ServerJsonError(
      `a server.json needs a description of 1-100 characters (McpApp.create({ description }) or package.json's); it has ${length}`,
    );
  if (typeof pkg.version !== "string" || pkg.version === "" || VERSION_RANGE.test(pkg.version))
    throw new ServerJsonError(`package.json needs an exact version ("1.2.3"), got ${JSON.stringify(pkg.version)}`);
  const packageOption = options.package ?? "stdio";
  if (packageOption !== false && (typeof pkg.name !== "string" || pkg.name === ""))
    throw new ServerJsonError("package.json needs a name: the npm package hosts install");
  if (typeof packageOption === "object" && (typeof packageOption.url !== "string" || !/^https?:\/\/[^\s]+$/.test(packageOption.url)))
    throw new ServerJsonError(
      `package.url must be the http(s) URL the package serves when run, such as "http://localhost:3000/mcp", got ${JSON.stringify(packageOption.url)}`,
    );
  const remotes = (options.remotes ?? []).map(remoteOf);
  if (packageOption === false && remotes.length === 0)
    throw new ServerJsonError("a server.json needs a package or at least one remote: give options.remotes, or leave package on");
  const websiteUrl = info.websiteUrl ?? pkg.homepage;
  const repository = info.repository ?? repositoryOf(pkg);
  const environment = info.environment.map(input);
  const transport =
    packageOption === "stdio"
      ? { type: "stdio" }
      : packageOption === false
        ? undefined
        : { type: "streamable-http", url: packageOption.url };
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: mcpName,
    description: description!,
    ...(info.title !== undefined && { title: info.title }),
    version: pkg.version,
    ...(websiteUrl !== undefined && { websiteUrl }),
    ...(repository !== undefined && { repository: { ...repository } }),
    ...(info.icons !== undefined && { icons: info.icons.map((icon) => ({ ...icon })) }),
    ...(transport !== undefined && {
      packages: [
        {
          registryType: "npm",
          identifier: pkg.name!,
          version: pkg.version,
          transport,
          ...(environment.length > 0 && { environmentVariables: environment }),
        },
      ],
    }),
    ...(remotes.length > 0 && { remotes }),
  };
}
