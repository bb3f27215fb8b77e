// Pins the SDK facade (server/request/sdk-module.ts) that lets a stdio server start without the SDK:
// - the constants it copies equal the SDK's own (a new SDK that changes one fails here);
// - sdk() and sdkStdio() return the SDK's modules themselves, loaded once.
import * as Sdk from "@modelcontextprotocol/server";
import * as SdkStdio from "@modelcontextprotocol/server/stdio";
import * as facade from "../../../../src/server/request/sdk-module";

describe("sdk-module", () => {
  it("copies the SDK's constants exactly", () => {
    expect({
      PROTOCOL_VERSION_META_KEY: facade.PROTOCOL_VERSION_META_KEY,
      CLIENT_CAPABILITIES_META_KEY: facade.CLIENT_CAPABILITIES_META_KEY,
      CLIENT_INFO_META_KEY: facade.CLIENT_INFO_META_KEY,
      SERVER_INFO_META_KEY: facade.SERVER_INFO_META_KEY,
      LOG_LEVEL_META_KEY: facade.LOG_LEVEL_META_KEY,
      RELATED_TASK_META_KEY: facade.RELATED_TASK_META_KEY,
      SUPPORTED_PROTOCOL_VERSIONS: facade.SUPPORTED_PROTOCOL_VERSIONS,
    }).toEqual({
      PROTOCOL_VERSION_META_KEY: Sdk.PROTOCOL_VERSION_META_KEY,
      CLIENT_CAPABILITIES_META_KEY: Sdk.CLIENT_CAPABILITIES_META_KEY,
      CLIENT_INFO_META_KEY: Sdk.CLIENT_INFO_META_KEY,
      SERVER_INFO_META_KEY: Sdk.SERVER_INFO_META_KEY,
      LOG_LEVEL_META_KEY: Sdk.LOG_LEVEL_META_KEY,
      RELATED_TASK_META_KEY: Sdk.RELATED_TASK_META_KEY,
      SUPPORTED_PROTOCOL_VERSIONS: [...Sdk.SUPPORTED_PROTOCOL_VERSIONS],
    });
  });

  it("loads the SDK's own modules, once", () => {
    expect(facade.sdk().Server).toBe(Sdk.Server);
    expect(facade.sdk()).toBe(facade.sdk());
    expect(facade.sdkStdio().serveStdio).toBe(SdkStdio.serveStdio);
  });
});
