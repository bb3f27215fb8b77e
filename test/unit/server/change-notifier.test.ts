// Pins ChangeNotifier, the injectable publish side of subscriptions/listen:
// - each method reaches every attached target with the matching call (and the uri for updates);
// - with no target attached, every method is a no-op;
// - the function attach() returns detaches that target only, and calling it twice is harmless;
// - McpApp registers one per container: components get the app's own instance (`app.changes`),
//   and an app reusing a container with one already registered shares it.
// - shared over a MessageBus (as McpApp shares its own over `bus`):
//   - a change announced on one notifier reaches the targets of every notifier on the bus and
//     channel, its own targets at once (synchronously) and exactly once, never those of another
//     channel (another app);
//   - each kind travels: tools, prompts, resources, and resource updates with their uri;
//   - a bus that refuses publish: the local targets still get the change, and one warning is
//     logged for the outage, not one per change;
//   - a subscribe the bus refuses at first is tried again (after 1 s) and then carries changes;
//   - messages on the channel that are not changes are ignored; stopping the share ends delivery;
//   - two McpApps given one bus: app A's `changes.toolsChanged()` reaches app B's targets, and
//     app.close() does not close a bus it was given.
import "reflect-metadata";
import { container as rootContainer, injectable } from "tsyringe";
import { ChangeNotifier, type JsonValue, McpApp, Tool } from "../../../src/index";
import { MemoryMessageBus, type MessageBus } from "../../../src/stores/index";
import { MemoryLogger } from "../../../src/testing/index";
import type { ChangeTarget } from "../../../src/server/change-notifier";

function recorder(): ChangeTarget & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    toolsChanged: () => void calls.push("tools"),
    promptsChanged: () => void calls.push("prompts"),
    resourcesChanged: () => void calls.push("resources"),
    resourceUpdated: (uri) => void calls.push(`updated ${uri}`),
  };
}

@injectable()
class NeedsNotifier {
  constructor(readonly changes: ChangeNotifier) {}
  @Tool({ description: "announces" })
  announce() {
    this.changes.toolsChanged();
    return "ok";
  }
}

const SECRET = "change-notifier-test-secret-0123456789abcdef";

describe("ChangeNotifier", () => {
  it("fans every kind of change out to each attached target", () => {
    const notifier = new ChangeNotifier();
    const a = recorder();
    const b = recorder();
    notifier.attach(a);
    notifier.attach(b);
    notifier.toolsChanged();
    notifier.promptsChanged();
    notifier.resourcesChanged();
    notifier.resourceUpdated("test://x");
    expect(a.calls).toEqual(["tools", "prompts", "resources", "updated test://x"]);
    expect(b.calls).toEqual(a.calls);
  });

  it("does nothing when no target is attached", () => {
    const notifier = new ChangeNotifier();
    expect(() => {
      notifier.toolsChanged();
      notifier.promptsChanged();
      notifier.resourcesChanged();
      notifier.resourceUpdated("test://x");
    }).not.toThrow();
  });

  it("detaches one target with the function attach returned", () => {
    const notifier = new ChangeNotifier();
    const kept = recorder();
    const dropped = recorder();
    notifier.attach(kept);
    const detach = notifier.attach(dropped);
    detach();
    detach();
    notifier.promptsChanged();
    expect(kept.calls).toEqual(["prompts"]);
    expect(dropped.calls).toEqual([]);
  });
});

describe("McpApp and its ChangeNotifier", () => {
  it("injects the app's own notifier into components", () => {
    const app = McpApp.create({ components: [NeedsNotifier], state: { secret: SECRET }, logger: new MemoryLogger() });
    expect(app.changes).toBeInstanceOf(ChangeNotifier);
    expect(app.container.resolve(NeedsNotifier).changes).toBe(app.changes);
    const other = McpApp.create({ components: [NeedsNotifier], state: { secret: SECRET }, logger: new MemoryLogger() });
    expect(other.changes).not.toBe(app.changes);
  });

  it("shares the notifier already registered in a container it is given", () => {
    const container = rootContainer.createChildContainer();
    const shared = new ChangeNotifier();
    container.registerInstance(ChangeNotifier, shared);
    const app = McpApp.create({ components: [NeedsNotifier], state: { secret: SECRET }, logger: new MemoryLogger(), container });
    expect(app.changes).toBe(shared);
  });

  it("routes app.changes.toolsChanged and its siblings through the attached targets", () => {
    const app = McpApp.create({ components: [NeedsNotifier], state: { secret: SECRET }, logger: new MemoryLogger() });
    const target = recorder();
    app.changes.attach(target);
    app.changes.toolsChanged();
    app.changes.promptsChanged();
    app.changes.resourcesChanged();
    app.changes.resourceUpdated("test://y");
    expect(target.calls).toEqual(["tools", "prompts", "resources", "updated test://y"]);
  });
});

/** Lets the memory bus's microtask deliveries run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

class Plain {
  @Tool({ description: "x" })
  x() {
    return "x";
  }
}

describe("ChangeNotifier over a bus", () => {
  it("reaches every notifier on the channel, its own targets at once and once, and no other channel", async () => {
    const bus = new MemoryMessageBus();
    const logger = new MemoryLogger();
    const [a, b, otherApp] = [new ChangeNotifier(), new ChangeNotifier(), new ChangeNotifier()];
    const [onA, onB, onOther] = [recorder(), recorder(), recorder()];
    a.attach(onA);
    b.attach(onB);
    otherApp.attach(onOther);
    a.share(bus, "changes/app", logger);
    b.share(bus, "changes/app", logger);
    otherApp.share(bus, "changes/other", logger);
    await settle();
    a.toolsChanged();
    expect(onA.calls).toEqual(["tools"]); // synchronously
    a.promptsChanged();
    b.resourcesChanged();
    b.resourceUpdated("test://r");
    await settle();
    expect(onA.calls).toEqual(["tools", "prompts", "resources", "updated test://r"]);
    expect(onB.calls).toEqual(["resources", "updated test://r", "tools", "prompts"]);
    expect(onOther.calls).toEqual([]);
  });

  it("still tells its own targets when the bus refuses, and logs the outage once", async () => {
    const bus: MessageBus = {
      healthy: false,
      publish: () => Promise.reject(new Error("down")),
      subscribe: () => Promise.resolve(async () => undefined),
      close: () => Promise.resolve(),
    };
    const logger = new MemoryLogger();
    const notifier = new ChangeNotifier();
    const target = recorder();
    notifier.attach(target);
    notifier.share(bus, "c", logger);
    notifier.toolsChanged();
    notifier.toolsChanged();
    await settle();
    expect(target.calls).toEqual(["tools", "tools"]);
    expect(logger.entries.filter((e) => e.message.startsWith("a change notification did not reach"))).toHaveLength(1);
  });

  it("subscribes again after a refusal, then carries changes", async () => {
    jest.useFakeTimers();
    try {
      const inner = new MemoryMessageBus();
      let refusals = 1;
      const bus: MessageBus = {
        get healthy() {
          return inner.healthy;
        },
        publish: (c, m) => inner.publish(c, m),
        subscribe: (c, h) => (refusals-- > 0 ? Promise.reject(new Error("down")) : inner.subscribe(c, h)),
        close: () => inner.close(),
      };
      const logger = new MemoryLogger();
      const [a, b] = [new ChangeNotifier(), new ChangeNotifier()];
      const onB = recorder();
      b.attach(onB);
      b.share(bus, "c", logger);
      a.share(inner, "c", logger);
      await jest.advanceTimersByTimeAsync(0);
      expect(logger.entries.map((e) => e.message)).toContain(
        "could not subscribe to change notifications on the bus; retrying with backoff",
      );
      await jest.advanceTimersByTimeAsync(1000);
      a.toolsChanged();
      await jest.advanceTimersByTimeAsync(0);
      expect(onB.calls).toEqual(["tools"]);
    } finally {
      jest.useRealTimers();
    }
  });

  it("ignores messages on the channel that are not changes, and stops when the share ends", async () => {
    const bus = new MemoryMessageBus();
    const notifier = new ChangeNotifier();
    const target = recorder();
    notifier.attach(target);
    const stop = notifier.share(bus, "c", new MemoryLogger());
    await settle();
    for (const junk of <JsonValue[]>[null, 1, "tools", { kind: "tools" }, { kind: "nope", from: "x" }, { kind: "resource", from: "x" }])
      await bus.publish("c", junk);
    expect(target.calls).toEqual([]);
    await bus.publish("c", { kind: "tools", from: "another instance" });
    expect(target.calls).toEqual(["tools"]);
    await stop();
    await bus.publish("c", { kind: "tools", from: "another instance" });
    expect(target.calls).toEqual(["tools"]);
  });

  it("carries app A's changes to app B when both are given one bus, and leaves that bus open on close", async () => {
    const bus = new MemoryMessageBus();
    const options = { components: [Plain], state: { secret: "change-notifier-bus-secret-0123456789abcdef" }, bus };
    const a = McpApp.create({ ...options, logger: new MemoryLogger() });
    const b = McpApp.create({ ...options, logger: new MemoryLogger() });
    const onB = recorder();
    b.changes.attach(onB);
    await settle();
    a.changes.toolsChanged();
    a.changes.resourceUpdated("test://doc");
    await settle();
    expect(onB.calls).toEqual(["tools", "updated test://doc"]);
    await a.close();
    await b.close();
    expect(bus.healthy).toBe(true);
  });
});
