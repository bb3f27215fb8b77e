// Pins the errors an app gets when it asks for an optional peer that is not installed: the
// telemetry option without @opentelemetry/api, and pinoLogger() without pino (nor a logger of
// its own); each names the package and the install command, and the module's own cause.
import { loadOpenTelemetry, OPENTELEMETRY_INSTALL_COMMAND } from "../../../../src/dispatch/telemetry/load-opentelemetry";
import { pinoLogger, PINO_INSTALL_COMMAND } from "../../../../src/protocol/pino-logger";

function notFound(name: string): Error {
  return Object.assign(new Error(`Cannot find module '${name}' from 'somewhere'`), { code: "MODULE_NOT_FOUND" });
}

describe("optional peers that are not installed", () => {
  afterEach(() => jest.resetModules());

  it("names npm install @opentelemetry/api@1 when the telemetry option finds no API", () => {
    jest.doMock("@opentelemetry/api", () => {
      throw notFound("@opentelemetry/api");
    });
    expect(() => loadOpenTelemetry()).toThrow(`In your app, run: ${OPENTELEMETRY_INSTALL_COMMAND}`);
    expect(OPENTELEMETRY_INSTALL_COMMAND).toBe("npm install @opentelemetry/api@1");
  });

  it("names npm install pino@10 when pinoLogger() finds no pino, and needs none given a logger", () => {
    jest.doMock("pino", () => {
      throw notFound("pino");
    });
    expect(() => pinoLogger()).toThrow(`run: ${PINO_INSTALL_COMMAND}, or pass a logger of your own`);
    const child = { child: () => child, debug: jest.fn(), info: jest.fn(), warn: jest.fn(), error: jest.fn() };
    pinoLogger({ logger: child }).info("fine");
    expect(child.info).toHaveBeenCalledWith({}, "fine");
  });
});
