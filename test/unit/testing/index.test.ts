// Pins that the built roundtrip-mcp/testing entry loads on its own (it brings reflect-metadata) and
// serves a component in-process, in a fresh process that imports nothing else first.
import { execFileSync } from "node:child_process";
import * as path from "node:path";

describe("the testing entry on its own", () => {
  it("loads reflect-metadata itself and serves a component, in a fresh process", () => {
    const kit = path.resolve(__dirname, "../../../dist/src/testing/index.js");
    const main = path.resolve(__dirname, "../../../dist/src/index.js");
    const script = `
      const { createTestClient } = require(${JSON.stringify(kit)});
      const { Tool } = require(${JSON.stringify(main)});
      class Hello { hello() { return "hi"; } }
      Tool()(Hello.prototype, "hello", Object.getOwnPropertyDescriptor(Hello.prototype, "hello"));
      createTestClient([Hello]).then(async (client) => {
        const result = await client.callTool("hello", {});
        console.log(JSON.stringify(result.text));
        await client.close();
      });`;
    expect(execFileSync(process.execPath, ["-e", script]).toString().trim()).toBe('"hi"');
  });
});
