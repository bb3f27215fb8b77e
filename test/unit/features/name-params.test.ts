// Pins the Mcp-Name table derived from the shipped features' specs (src/features/name-params.ts):
// it holds the `nameParam` of every method of the compiled built-in features and the tasks feature
// and no other method (so the kit's HTTP client writes the header the server checks), and
// nameParamsOf leaves out a method whose spec declares no name param.
import "reflect-metadata";
import { BUILT_IN_FEATURES } from "../../../src/features/built-in-features";
import { FeatureTable } from "../../../src/features/feature-table";
import { nameParamsOf, SHIPPED_NAME_PARAMS } from "../../../src/features/name-params";
import { tasks } from "../../../src/index";
import { MemoryTaskStore } from "../../../src/stores/index";
import { SilentLogger } from "../../../src/testing/index";

describe("SHIPPED_NAME_PARAMS (the Mcp-Name table read from the feature specs)", () => {
  it("is the nameParam of every method the compiled feature table serves", async () => {
    const taskFeature = tasks({ store: new MemoryTaskStore() });
    const table = new FeatureTable([...BUILT_IN_FEATURES, taskFeature], { components: [], logger: new SilentLogger() });
    try {
      const fromTable = Object.fromEntries(table.methods.filter((m) => m.nameParam !== undefined).map((m) => [m.method, m.nameParam]));
      expect(Object.keys(fromTable).length).toBeGreaterThanOrEqual(6);
      expect({ ...SHIPPED_NAME_PARAMS }).toEqual(fromTable);
    } finally {
      await table.close();
    }
  });

  it("nameParamsOf keeps only the methods whose spec names a param", () => {
    const derived = nameParamsOf([
      { method: "x/get", inputRequired: false, nameParam: "uri" },
      { method: "x/list", inputRequired: false },
    ]);
    expect(derived).toEqual({ "x/get": "uri" });
    expect(Object.isFrozen(derived)).toBe(true);
  });
});
