// Pins the error an app gets when it asks for pinoLogger() without pino installed (nor a logger of
// its own): it names the package and the install command; given a logger, it needs no pino.
import { pinoLogger, PINO_INSTALL_COMMAND } from "../../../src/protocol/pino-logger";

function notFound(name: string): Error {
  return Object.assign(new Error(`Cannot find module '${name}' from 'somewhere'`), { code: "MODULE_NOT_FOUND" });
}

describe("pinoLogger without pino installed", () => {
  afterEach(() => jest.resetModules());

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
