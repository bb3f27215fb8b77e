// Pins MemoryMessageBus, the one-process MessageBus: delivery to every subscriber of a channel
// (and only that channel), after publish returns, a subscription that ends, a throwing handler
// that does not stop the others, and a closed bus that refuses new work and reports unhealthy.
import { MemoryMessageBus } from "../../../src/stores/message-bus";

describe("MemoryMessageBus", () => {
  it("delivers a message to every subscriber of its channel, and to no other channel", async () => {
    const bus = new MemoryMessageBus();
    const a: unknown[] = [];
    const b: unknown[] = [];
    const other: unknown[] = [];
    await bus.subscribe("answers", (m) => a.push(m));
    await bus.subscribe("answers", (m) => b.push(m));
    await bus.subscribe("changes", (m) => other.push(m));
    const sent = bus.publish("answers", { id: 1 });
    expect(a).toEqual([]); // not synchronously
    await sent;
    expect(a).toEqual([{ id: 1 }]);
    expect(b).toEqual([{ id: 1 }]);
    expect(other).toEqual([]);
  });

  it("stops delivering once a subscription ends", async () => {
    const bus = new MemoryMessageBus();
    const seen: unknown[] = [];
    const end = await bus.subscribe("c", (m) => seen.push(m));
    await bus.publish("c", 1);
    await end();
    await bus.publish("c", 2);
    expect(seen).toEqual([1]);
  });

  it("reports a throwing handler and still delivers to the others", async () => {
    const errors: unknown[] = [];
    const bus = new MemoryMessageBus((e) => errors.push(e));
    const seen: unknown[] = [];
    await bus.subscribe("c", () => {
      throw new Error("boom");
    });
    await bus.subscribe("c", (m) => seen.push(m));
    await bus.publish("c", "x");
    expect(seen).toEqual(["x"]);
    expect(errors).toHaveLength(1);
  });

  it("is unhealthy and refuses publish and subscribe once closed", async () => {
    const bus = new MemoryMessageBus();
    expect(bus.healthy).toBe(true);
    await bus.close();
    expect(bus.healthy).toBe(false);
    await expect(bus.publish("c", 1)).rejects.toThrow(/closed/);
    await expect(bus.subscribe("c", () => undefined)).rejects.toThrow(/closed/);
  });
});
