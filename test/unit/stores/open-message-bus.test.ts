// Pins openMessageBus without a database: `memory:` gives a MemoryMessageBus that delivers;
// an unknown scheme, a URL without one and a non-string are refused with TaskStoreConfigError
// naming the scheme and what is accepted, never the rest of the URL (which may hold a password).
import { MemoryMessageBus, TaskStoreConfigError, openMessageBus } from "../../../src/stores";

describe("openMessageBus", () => {
  it("opens a one-process bus for memory:", async () => {
    const bus = await openMessageBus("memory:");
    expect(bus).toBeInstanceOf(MemoryMessageBus);
    const seen: unknown[] = [];
    await bus.subscribe("c", (m) => seen.push(m));
    await bus.publish("c", { n: 1 });
    expect(seen).toEqual([{ n: 1 }]);
  });

  it("refuses an unknown scheme, naming it and not the rest of the URL", async () => {
    const opening = openMessageBus("redis://user:s3cret@host/0");
    await expect(opening).rejects.toThrow(TaskStoreConfigError);
    await expect(opening).rejects.toThrow('Unknown message bus scheme "redis:"; expected memory: or postgres://…');
    await expect(openMessageBus("redis://user:s3cret@host/0")).rejects.not.toThrow("s3cret");
  });

  it("refuses a URL without a scheme and a value that is not a string", async () => {
    await expect(openMessageBus("localhost:5432")).rejects.toThrow('Unknown message bus scheme "localhost:"');
    await expect(openMessageBus("no scheme")).rejects.toThrow("A message bus URL needs a scheme");
    await expect(openMessageBus(42 as unknown as string)).rejects.toThrow("A message bus URL must be a string");
  });
});
