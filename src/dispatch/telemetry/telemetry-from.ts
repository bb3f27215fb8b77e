import type { RequestTelemetry } from "../request-telemetry";
import type * as OpenTelemetry from "./open-telemetry";
import type { TelemetryOptions } from "./telemetry-options";

/** The app's telemetry, made (and its code and `@opentelemetry/api` loaded) only when the option enables it. */
export function telemetryFrom(option: boolean | TelemetryOptions | undefined): RequestTelemetry | undefined {
  if (option === undefined || option === false) return undefined;
  // Required here, not imported: an app without telemetry does not load its code (startup, issue 24).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when the option enables it
  const { OpenTelemetryRequests } = require("./open-telemetry") as typeof OpenTelemetry;
  return new OpenTelemetryRequests(option === true ? {} : option);
}
