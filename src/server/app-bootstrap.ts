import type { ServerContext } from "@modelcontextprotocol/server";
import type { DependencyContainer } from "tsyringe";
import type { AppLogger } from "../protocol/app-logger";
import { createStateSealer } from "../state/create-state-sealer";
import type { StateOptions } from "../state/state-options";
import { StateSealer } from "../state/state-sealer";
import { ChangeNotifier } from "./change-notifier";
import { carriedFacts, type TransportFacts } from "./request/transport-facts";

/**
 * The app's `StateSealer`: made from the `state` option and registered in the container, or the
 * one already registered there (then a `state` option is refused: one sealer, one source).
 */
export function registerSealer(container: DependencyContainer, state: StateOptions | undefined, logger: AppLogger): StateSealer {
  if (!container.isRegistered(StateSealer, true)) {
    if (!state) {
      throw new TypeError(
        "McpApp.create: the state option is required (or register a StateSealer in the container): " +
          '{ secret }, { keys }, { keysFromEnv: "VAR" } or { ephemeral: true } for local development',
      );
    }
    container.registerInstance(StateSealer, createStateSealer(state, logger));
  } else if (state) {
    throw new TypeError("McpApp.create: a StateSealer is already registered in the container; drop the state option");
  }
  return container.resolve(StateSealer);
}

/** A positive integer option, or undefined; anything else is refused, naming the option. */
export function positiveOption(value: number | undefined, name: string): number | undefined {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < 1))
    throw new RangeError(`McpApp.create: ${name} must be a positive integer, got ${String(value)}`);
  return value;
}

/** An HTTP request's facts, as the answerer carried them through the SDK's handler. */
export function httpFacts(ctx: ServerContext): TransportFacts {
  return carriedFacts(ctx.http?.authInfo) ?? { transport: "http", principal: null, ownBytes: false };
}

/**
 * The container's `ChangeNotifier`, registered unless it is already: components reach it by
 * injection, an app sharing a container shares it, and features get it as `changes`.
 */
export function registerChangeNotifier(container: DependencyContainer): ChangeNotifier {
  if (!container.isRegistered(ChangeNotifier, false)) container.registerInstance(ChangeNotifier, new ChangeNotifier());
  return container.resolve(ChangeNotifier);
}

/** Registers each component class as a singleton, unless the container already knows it. */
export function registerComponents(container: DependencyContainer, components: readonly Function[]): void {
  for (const cls of components) {
    if (!container.isRegistered(cls as never, true)) container.registerSingleton(cls as never);
  }
}
