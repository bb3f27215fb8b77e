// Pins ChangeNotifier, the injectable publish side of subscriptions/listen:
// - each method reaches every attached target with the matching call (and the uri for updates);
// - with no target attached, every method is a no-op;
// - the function attach() returns detaches that target only, and calling it twice is harmless;
// - McpApp registers one per container: components get the app's own instance (`app.changes`),
//   and an app reusing a container with one already registered shares it.
import "reflect-metadata";
import { container as rootContainer, injectable } from "tsyringe";
import { ChangeNotifier, McpApp, Tool } from "../../../src/index";
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
