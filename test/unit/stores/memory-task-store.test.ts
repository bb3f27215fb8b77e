/*
 * The TaskStore contract (task-store-contract.ts) on the memory store, with an injected clock.
 * "Another handle" is the same store: the memory store lives in one process.
 */
import { MemoryTaskStore } from "../../../src/stores";
import { describeTaskStoreContract } from "./task-store-contract";

describeTaskStoreContract("memory", {
  propertyRuns: 200,
  async open(settings) {
    let now = Date.UTC(2030, 0, 1);
    const store = new MemoryTaskStore({ ...settings, clock: () => now });
    return {
      store,
      second: async () => store,
      advance: (ms) => {
        now += ms;
      },
      dispose: () => store.close(),
    };
  },
});
