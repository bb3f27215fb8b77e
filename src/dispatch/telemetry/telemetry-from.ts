import type { RequestTelemetry } from "../request-telemetry";
import { OpenTelemetryRequests } from "./open-telemetry";
import type { TelemetryOptions } from "./telemetry-options";

/** The app's telemetry, made (and `@opentelemetry/api` loaded) only when the option enables it. */
export function telemetryFrom(option: boolean | TelemetryOptions | undefined): RequestTelemetry | undefined {
  if (option === undefined || option === false) return undefined;
  return new OpenTelemetryRequests(option === true ? {} : option);
}
