import { randomBytes } from "node:crypto";
import { MemoryLogger } from "./loggers";
import { McpApp } from "../server/mcp-app";
import type { McpAppOptions } from "../server/mcp-app-options";
import type { StateOptions } from "../state/state-options";
import { createTestClock, type TestClock } from "./test-clock";

/** The app the kit builds from components, and whether it controls the sealer's clock. */
export interface KitApp {
  app: McpApp;
  /** True when the kit built the app (and so must close it). */
  owned: boolean;
  clock: TestClock | undefined;
  noClockReason?: string;
}

/** How the kit builds an app from bare components. */
export interface KitAppOptions {
  /**
   * McpApp options besides the components. Defaults: name "test-app", a `MemoryLogger`, and
   * `state: { secret: <random 32 bytes>, now: clock.now }`. A `state` without `now` gets the
   * kit's clock; one with its own `now` leaves `client.clock` to the `clock` option.
   */
  app?: Omit<McpAppOptions, "components">;
  /**
   * The clock `client.clock` returns. With components: the sealer's clock (default a new
   * `createTestClock()`). With a ready McpApp: give the clock it was built with (`state.now: clock.now`).
   */
  clock?: TestClock;
}

/** A ready app as given, or one the kit builds from components with a controllable clock. */
export function kitApp(target: McpApp | readonly Function[], options: KitAppOptions): KitApp {
  if (target instanceof McpApp) {
    if (options.app !== undefined)
      throw new TypeError("createTestClient: the app option applies to components only; this McpApp is already built");
    return {
      app: target,
      owned: false,
      clock: options.clock,
      noClockReason:
        "this client was given a ready McpApp; build it with a test clock (const clock = createTestClock(); McpApp.create({ ..., state: { secret, now: clock.now } })) and pass { clock } to the client",
    };
  }
  if (!Array.isArray(target)) throw new TypeError("createTestClient: expected an McpApp or an array of component classes");
  const given = options.app?.state as (StateOptions & { now?: () => number }) | undefined;
  const ownClock = given?.now === undefined;
  const clock = ownClock ? (options.clock ?? createTestClock()) : options.clock;
  const state = { ...(given ?? { secret: randomBytes(32) }), ...(ownClock && { now: clock!.now }) } as StateOptions;
  const app = McpApp.create({ name: "test-app", logger: new MemoryLogger(), ...options.app, components: [...target], state });
  return {
    app,
    owned: true,
    clock,
    noClockReason: "the app option's state has its own now(); pass the matching test clock as the clock option",
  };
}
