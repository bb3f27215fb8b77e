import type { Icon } from "../../decorators/component-options";
import type { StateOptions } from "../../state/state-options";

/** Where a server's source lives (a server card's and `server.json`'s `repository`). */
export interface Repository {
  /** A URL to browse and clone the source: "https://github.com/acme/weather-mcp". */
  readonly url: string;
  /** The hosting service: "github", "gitlab", ... */
  readonly source: string;
  /** The hosting service's own id of the repository (stable across renames). */
  readonly id?: string;
  /** The server's folder in a monorepo, relative to its root. */
  readonly subfolder?: string;
}

/**
 * An environment variable the server reads, as the MCP Registry's `server.json` describes it to
 * hosts that install the package (`environmentVariables`): its name, what it is, and whether it
 * is required or secret.
 */
export interface EnvironmentVariable {
  readonly name: string;
  readonly description?: string;
  readonly isRequired?: boolean;
  readonly isSecret?: boolean;
  readonly default?: string;
  readonly placeholder?: string;
  readonly format?: "string" | "number" | "boolean" | "filepath";
  readonly choices?: readonly string[];
}

/** The server's `serverInfo` (an MCP `Implementation`), sent in every result's `_meta`. */
export interface ServerInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly description?: string;
  readonly icons?: readonly Icon[];
  readonly websiteUrl?: string;
}

/**
 * How the app presents itself to hosts, registries and catalogs, checked once when it is built:
 * its `serverInfo`, plus what its server card and `server.json` add (the registry name, the
 * repository, the environment it reads).
 */
export interface AppInfo extends ServerInfo {
  /** The name in the MCP Registry, reverse-DNS ("io.github.acme/weather"), as package.json's `mcpName`. */
  readonly mcpName?: string;
  readonly repository?: Repository;
  /** Every environment variable the app declares it reads (`environment`, and `state.keysFromEnv`'s). */
  readonly environment: readonly EnvironmentVariable[];
}

/** What `AppInfo` is read from: the matching `McpAppOptions` fields. */
export interface AppInfoOptions {
  readonly name?: string;
  readonly version?: string;
  readonly title?: string;
  readonly description?: string;
  readonly icons?: readonly Icon[];
  readonly websiteUrl?: string;
  readonly mcpName?: string;
  readonly repository?: Repository;
  readonly environment?: readonly EnvironmentVariable[];
  readonly state?: StateOptions;
}

/** A registry name: reverse-DNS namespace, one slash, server name (the MCP Registry's pattern). */
export const MCP_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function isHttpUrl(text: unknown): boolean {
  if (typeof text !== "string") return false;
  try {
    const url = new URL(text);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

function text(value: unknown, name: string): string | undefined {
  if (value !== undefined && (typeof value !== "string" || value.trim() === ""))
    throw new TypeError(`McpApp.create: ${name} must be a non-empty string`);
  return value as string | undefined;
}

/** The app's identity from its options; a malformed field is a TypeError naming it and the fix. */
export function appInfo(options: AppInfoOptions, defaultName: string): AppInfo {
  const description = text(options.description, "description");
  const websiteUrl = text(options.websiteUrl, "websiteUrl");
  if (websiteUrl !== undefined && !isHttpUrl(websiteUrl))
    throw new TypeError(`McpApp.create: websiteUrl must be an http(s) URL, got ${websiteUrl}`);
  const mcpName = text(options.mcpName, "mcpName");
  if (mcpName !== undefined && (!MCP_NAME.test(mcpName) || mcpName.length > 200))
    throw new TypeError(`McpApp.create: mcpName must be reverse-DNS with one slash, such as "io.github.<user>/<server>", got "${mcpName}"`);
  if (options.icons !== undefined) {
    if (!Array.isArray(options.icons)) throw new TypeError("McpApp.create: icons must be an array of { src, mimeType?, sizes?, theme? }");
    for (const [i, icon] of options.icons.entries())
      if (typeof icon?.src !== "string" || !(isHttpUrl(icon.src) || icon.src.startsWith("data:")))
        throw new TypeError(`McpApp.create: icons[${i}].src must be an https URL or a data: URI`);
  }
  const repository = options.repository;
  if (repository !== undefined && (!isHttpUrl(repository.url) || typeof repository.source !== "string" || repository.source === ""))
    throw new TypeError('McpApp.create: repository must be { url: "https://...", source: "github" | "gitlab" | ... }');
  const environment = new Map<string, EnvironmentVariable>();
  const keysFromEnv = (options.state as { keysFromEnv?: unknown } | undefined)?.keysFromEnv;
  if (typeof keysFromEnv === "string")
    environment.set(keysFromEnv, {
      name: keysFromEnv,
      description: "The key ring sealing requestState: comma-separated id:base64secret entries (32+ random bytes each), the first seals",
      isRequired: true,
      isSecret: true,
    });
  for (const [i, variable] of (options.environment ?? []).entries()) {
    if (typeof variable?.name !== "string" || !ENV_NAME.test(variable.name))
      throw new TypeError(`McpApp.create: environment[${i}].name must be an environment variable name (letters, digits, _)`);
    environment.set(variable.name, { ...variable });
  }
  return {
    name: options.name ?? defaultName,
    version: options.version ?? "0.0.0",
    ...(options.title !== undefined && { title: options.title }),
    ...(description !== undefined && { description }),
    ...(options.icons !== undefined && { icons: options.icons.map((icon) => ({ ...icon })) }),
    ...(websiteUrl !== undefined && { websiteUrl }),
    ...(mcpName !== undefined && { mcpName }),
    ...(repository !== undefined && { repository: { ...repository } }),
    environment: [...environment.values()],
  };
}

/** The `serverInfo` part of the app's identity, its fields in the order they are sent. */
export function serverInfoOf(info: AppInfo): ServerInfo {
  const { name, version, title, description, icons, websiteUrl } = info;
  return {
    name,
    version,
    ...(title !== undefined && { title }),
    ...(description !== undefined && { description }),
    ...(icons !== undefined && { icons }),
    ...(websiteUrl !== undefined && { websiteUrl }),
  };
}
