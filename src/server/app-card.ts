import type { HealthEndpoints, HealthOptions } from "./http/health";
import type { HttpRoute } from "./http/http-routes";
import type { ListenOptions } from "./http/listen-options";
import { checkCardSource, serverCard, ServerCardEndpoint, type ServerCardHandler, type ServerCardOptions } from "./http/server-card";
import { withHealthRoutes } from "./app-health";
import type { AppInfo } from "./request/app-info";

/** The path of the server card beside the MCP endpoint at `path` (the draft reserves `<streamable HTTP URL>/server-card`). */
export function serverCardPath(path: string): string {
  return `${path.endsWith("/") ? path.slice(0, -1) : path}/server-card`;
}

/**
 * What `listen()` serves beside the MCP path: the app's routes, the health endpoints
 * (`options.health`) and the server card (`options.serverCard`), checked before the listener
 * starts. The card names the listener's URL, known once it listens: `located(url)` gives it.
 */
export function listenRoutes(
  routes: ReadonlyMap<string, HttpRoute>,
  options: ListenOptions,
  info: AppInfo,
  healthOf: (options: HealthOptions) => HealthEndpoints,
): { readonly routes: ReadonlyMap<string, HttpRoute>; located(url: string): void } {
  const path = options.path ?? "/mcp";
  const health = options.health ? healthOf(options.health === true ? {} : options.health) : undefined;
  if (health?.serves(path)) throw new RangeError("listen: the health paths must differ from path");
  const withHealth = withHealthRoutes(routes, health);
  if (!options.serverCard) return { routes: withHealth, located: () => {} };
  const cardOptions: ServerCardOptions = options.serverCard === true ? {} : options.serverCard;
  checkCardSource(info, cardOptions);
  const cardPath = serverCardPath(path);
  if (health?.serves(cardPath)) throw new RangeError(`listen: the health paths must differ from the server card's, ${cardPath}`);
  let located: (endpoint: ServerCardEndpoint) => void = () => {};
  const endpoint = new Promise<ServerCardEndpoint>((resolve) => (located = resolve));
  const route: HttpRoute = Object.assign(
    async (req: Parameters<HttpRoute>[0], res: Parameters<HttpRoute>[1]) => (await endpoint).node(req, res),
    {
      crossOrigin: true,
    },
  );
  const all = new Map(withHealth).set(cardPath, route);
  return {
    routes: all,
    located: (url) => {
      const card = serverCard(info, cardOptions.url ?? options.auth?.resource ?? url, {
        oauth: options.auth !== undefined,
        ...cardOptions,
      });
      located(new ServerCardEndpoint(card, cardOptions.maxAgeSeconds));
    },
  };
}

/** The app's server card as a handler for a mounted entry (which does not know its own URL: `url` is required). */
export function serverCardHandler(info: AppInfo, options: ServerCardOptions): ServerCardHandler {
  if (options.url === undefined)
    throw new TypeError('serverCardHandler: options.url is required: the public URL of the MCP endpoint ("https://mcp.example.com/mcp")');
  return new ServerCardEndpoint(serverCard(info, options.url, options), options.maxAgeSeconds);
}
