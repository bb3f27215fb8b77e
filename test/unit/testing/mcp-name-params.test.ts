// Pins that the testing kit's client-side table of Mcp-Name params (src/testing/mcp-name-params.ts)
// says what the server's feature table says: every method of the built-in features and the tasks
// feature with a `nameParam` is in the kit's table with that param, and the table names no other
// method, so the kit's HTTP client writes the header the server checks.
import "reflect-metadata";
import { BUILT_IN_FEATURES } from "../../../src/features/built-in-features";
import { FeatureTable } from "../../../src/features/feature-table";
import { tasks } from "../../../src/index";
import { MemoryTaskStore } from "../../../src/stores/index";
import { SilentLogger } from "../../../src/testing/index";
import { MCP_NAME_PARAMS } from "../../../src/testing/mcp-name-params";

describe("MCP_NAME_PARAMS (the testing kit's Mcp-Name table)", () => {
  it("agrees with the nameParam of every method in the feature table", async () => {
    const taskFeature = tasks({ store: new MemoryTaskStore() });
    const table = new FeatureTable([...BUILT_IN_FEATURES, taskFeature], { components: [], logger: new SilentLogger() });
    try {
      const fromFeatures = Object.fromEntries(table.methods.filter((m) => m.nameParam !== undefined).map((m) => [m.method, m.nameParam]));
      expect(Object.keys(fromFeatures).length).toBeGreaterThanOrEqual(6);
      expect({ ...MCP_NAME_PARAMS }).toEqual(fromFeatures);
    } finally {
      await table.close();
    }
  });
});
