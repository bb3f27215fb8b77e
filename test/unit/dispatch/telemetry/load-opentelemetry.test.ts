// Pins the error an app gets when it sets the telemetry option without @opentelemetry/api
// installed: it names the package and the install command, and the module's own cause.
import { loadOpenTelemetry, OPENTELEMETRY_INSTALL_COMMAND } from "../../../../src/dispatch/telemetry/load-opentelemetry";

function notFound(name: string): Error {
  return Object.assign(new Error(`Cannot find module '${name}' from 'somewhere'`), { code: "MODULE_NOT_FOUND" });
}

describe("loadOpenTelemetry without @opentelemetry/api installed", () => {
  afterEach(() => jest.resetModules());

  it("names npm install @opentelemetry/api@1 when the telemetry option finds no API", () => {
    jest.doMock("@opentelemetry/api", () => {
      throw notFound("@opentelemetry/api");
    });
    expect(() => loadOpenTelemetry()).toThrow(`In your app, run: ${OPENTELEMETRY_INSTALL_COMMAND}`);
    expect(OPENTELEMETRY_INSTALL_COMMAND).toBe("npm install @opentelemetry/api@1");
  });
});
