// Pins what a view costs per request, by identity rather than by timing:
// - a static view's read is the same frozen result object on every read, its contents' JSON
//   text kept (the fast lane splices it, encoding nothing per read);
// - a tools/list page with linked tools is the same frozen object on every request (the _meta
//   the apps feature adds is compiled into the entries once, at create());
// - a method view is shaped per read (its method runs every time).
import "reflect-metadata";
import { BUILT_IN_FEATURES } from "../../../../src/features/built-in-features";
import { FeatureTable } from "../../../../src/features/feature-table";
import { encodedTextOf } from "../../../../src/protocol/encoded-json";
import { Tool, View, apps } from "../../../../src/index";
import type { RequestContext } from "../../../../src/index";
import { SilentLogger } from "../../../../src/testing/index";

@View({ uri: "ui://t/static", html: "<!doctype html><p>static</p>", prefersBorder: true })
class StaticView {}

class Tools {
  @Tool({ view: StaticView }) show() {
    return "shown";
  }
  @View({ uri: "ui://t/method" }) page() {
    return "<!doctype html><p>method</p>";
  }
}

const table = new FeatureTable([...BUILT_IN_FEATURES, apps()], { components: [StaticView, Tools], logger: new SilentLogger() });
const request = (method: string, params: Record<string, unknown> = {}) => ({ method, params, principal: null, clientCapabilities: {} });
const ctx = { requestParams: { uri: "ui://t/static" } } as unknown as RequestContext;

describe("a view's per-request cost", () => {
  it("answers every read of a static view with one frozen result, its contents' text kept", async () => {
    const { component } = table.method("resources/read")!.select!(request("resources/read", { uri: "ui://t/static" }));
    const first = await component.shape(undefined, ctx);
    expect(await component.shape(undefined, ctx)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(encodedTextOf(first.contents)).toBe(JSON.stringify(first.contents));
    expect(first.contents).toEqual([
      {
        uri: "ui://t/static",
        mimeType: "text/html;profile=mcp-app",
        text: "<!doctype html><p>static</p>",
        _meta: { ui: { prefersBorder: true } },
      },
    ]);
  });

  it("lists linked tools from one frozen page, the same object every time", async () => {
    const list = table.method("tools/list")!;
    const first = await list.handle!(request("tools/list"));
    expect(await list.handle!(request("tools/list"))).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect((first.tools as { _meta: unknown }[])[0]!._meta).toEqual({
      ui: { resourceUri: "ui://t/static", visibility: ["model", "app"] },
      "ui/resourceUri": "ui://t/static",
    });
  });

  it("shapes a method view's read every time", async () => {
    const { component } = table.method("resources/read")!.select!(request("resources/read", { uri: "ui://t/method" }));
    const read = (html: string) => component.shape(html, { requestParams: { uri: "ui://t/method" } } as unknown as RequestContext);
    expect((await read("<!doctype html>a")).contents).toEqual([
      { uri: "ui://t/method", mimeType: "text/html;profile=mcp-app", text: "<!doctype html>a" },
    ]);
    expect(await read("<!doctype html>b")).not.toBe(await read("<!doctype html>b"));
  });
});
