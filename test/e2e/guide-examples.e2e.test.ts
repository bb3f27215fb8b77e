// Pins what the guides claim about their examples, by running them in-process with
// roundtrip-mcp/testing:
// - lifetimes (docs/examples/getting-started/lifetimes.ts): a component is one instance per app;
//   an @injectable() service is transient, so two components get two instances; registered once
//   in the app's container (registerSingleton) or marked @scoped(Lifecycle.ContainerScoped), both
//   components share one instance per app; @singleton() is one instance for the whole process,
//   shared by every app in it
// - errors (docs/examples/getting-started/errors.ts): a resource returning undefined and a URI no
//   resource matches are -32602 "Resource not found" with data.uri; a thrown McpError reaches the
//   client as exactly that error; Result.error from a tool, or a ToolError it throws, is an isError
//   result with that message
// - a question built from an injected service (docs/examples/interactive/service-question.ts):
//   asked with the service's choices, answered, checked against them (-32602 outside them),
//   declined into an isError result
// - @Elicit with the method's own sampling request (docs/examples/interactive/elicit-and-sample.ts):
//   three rounds, the trip carried through the sampling round
// - replay and idempotency (docs/examples/state/idempotent-payment.ts): the final round presented
//   twice charges once and returns the first receipt; a second flow with the same arguments is a
//   second charge
import "reflect-metadata";
import { Lifecycle, injectable, scoped, singleton } from "tsyringe";
import { accept, createTestClient, decline, modelReply, type TestClient } from "roundtrip-mcp/testing";
import { McpApp, Tool } from "roundtrip-mcp";
import { Farewell, Welcome, createVisitsApp } from "../../docs/examples/getting-started/lifetimes";
import { Notes } from "../../docs/examples/getting-started/errors";
import { Orders } from "../../docs/examples/interactive/service-question";
import { Guide } from "../../docs/examples/interactive/elicit-and-sample";
import { Checkout } from "../../docs/examples/state/idempotent-payment";

const clients: TestClient[] = [];
afterAll(() => Promise.all(clients.map((c) => c.close())));

async function client(target: McpApp | Function[]): Promise<TestClient> {
  const c = await createTestClient(target);
  clients.push(c);
  return c;
}

async function visits(c: TestClient, tools: string[]): Promise<string[]> {
  const texts: string[] = [];
  for (const tool of tools) texts.push((await c.callTool(tool)).text);
  return texts;
}

describe("lifetimes", () => {
  it("gives each component its own transient service, and keeps each component for the app's life", async () => {
    expect(await visits(await client([Welcome, Farewell]), ["welcome", "welcome", "farewell"])).toEqual(["visit 1", "visit 2", "visit 1"]);
  });

  it("shares a service registered once in the app's container", async () => {
    expect(await visits(await client(createVisitsApp()), ["welcome", "welcome", "farewell"])).toEqual(["visit 1", "visit 2", "visit 3"]);
    expect(await visits(await client(createVisitsApp()), ["farewell"])).toEqual(["visit 1"]);
  });

  it("shares a ContainerScoped service within an app, and a singleton across apps", async () => {
    @scoped(Lifecycle.ContainerScoped)
    class PerApp {
      n = 0;
    }
    @singleton()
    class PerProcess {
      n = 0;
    }
    @injectable()
    class One {
      constructor(
        private readonly app: PerApp,
        private readonly process: PerProcess,
      ) {}
      @Tool() one() {
        return `app ${++this.app.n} process ${++this.process.n}`;
      }
    }
    @injectable()
    class Two {
      constructor(
        private readonly app: PerApp,
        private readonly process: PerProcess,
      ) {}
      @Tool() two() {
        return `app ${++this.app.n} process ${++this.process.n}`;
      }
    }
    expect(await visits(await client([One, Two]), ["one", "two"])).toEqual(["app 1 process 1", "app 2 process 2"]);
    expect(await visits(await client([One, Two]), ["one"])).toEqual(["app 1 process 3"]);
  });
});

describe("errors", () => {
  let c: TestClient;
  beforeAll(async () => {
    c = await client([Notes]);
  });

  it("answers a resource that returns nothing, and a URI nothing matches, with -32602 and data.uri", async () => {
    expect((await c.readResource("notes://1")).text).toBe("Buy milk");
    expect((await c.readResource("notes://2")).error).toEqual({
      code: -32602,
      message: "Resource not found: notes://2",
      data: { uri: "notes://2" },
    });
    expect((await c.readResource("memo://2")).error).toEqual({
      code: -32602,
      message: "Resource not found: memo://2",
      data: { uri: "memo://2" },
    });
  });

  it("passes a thrown McpError through as that JSON-RPC error", async () => {
    expect((await c.readResource("notes://0")).error).toEqual({
      code: -32602,
      message: "Note 0 is archived",
      data: { uri: "notes://0", archived: true },
    });
  });

  it("turns Result.error from a tool into an isError result", async () => {
    expect((await c.callTool("count_words", { id: "1" })).text).toBe("2 words");
    const missing = await c.callTool("count_words", { id: "9" });
    expect(missing.result).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "No note 9: list the notes:// resources first." }],
      isError: true,
      _meta: expect.any(Object),
    });
  });

  it("turns a ToolError thrown from a tool into an isError result with its message", async () => {
    expect((await c.callTool("first_word", { id: "1" })).text).toBe("Buy");
    const missing = await c.callTool("first_word", { id: "9" });
    expect(missing.result).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "No note 9: list the notes:// resources first." }],
      isError: true,
      _meta: expect.any(Object),
    });
  });
});

describe("a question built from an injected service", () => {
  let c: TestClient;
  beforeAll(async () => {
    c = await createTestClient([Orders], { capabilities: { elicitation: {} } });
    clients.push(c);
  });

  it("asks with the service's choices and completes with the answer", async () => {
    const round1 = await c.callTool("order", { product: "shirt" });
    expect(round1.asked("size")).toMatchObject({ message: "Which size of shirt?", choices: ["S", "M", "L"] });
    expect((await round1.answer({ size: accept({ size: "M" }) })).text).toBe("Ordered shirt in size M.");
  });

  it("refuses a size the service does not offer, and ends on decline", async () => {
    const round1 = await c.callTool("order", { product: "shirt" });
    expect((await round1.answer({ size: accept({ size: "XL" }) })).error).toEqual({
      code: -32602,
      message: "Invalid elicitation response",
      data: { key: "size", reason: "content.size: enum" },
    });
    const declined = await round1.answer({ size: decline() });
    expect([declined.result.isError, declined.text]).toEqual([true, "No size chosen; nothing ordered."]);
    expect((await c.callTool("order", { product: "hat" })).text).toBe("hat is out of stock.");
  });
});

describe("@Elicit with the method's own sampling request", () => {
  it("completes in three rounds, carrying the trip through the sampling round", async () => {
    const c = await createTestClient([Guide], { capabilities: { elicitation: {}, sampling: {} } });
    clients.push(c);
    const round1 = await c.callTool("tip");
    expect(round1.asked("trip")).toMatchObject({ message: "Where are you going?" });
    const round2 = await round1.answer({ trip: accept({ destination: "Kyoto" }) });
    expect(round2.status).toBe("input_required");
    expect(round2.asked("tip")).toMatchObject({ kind: "sampling" });
    const round3 = await round2.answer({ tip: modelReply("Rent a bicycle.") });
    expect(round3.text).toBe("Kyoto: Rent a bicycle.");
  });
});

describe("replay and idempotency", () => {
  it("charges once per operation, however often its final round is presented", async () => {
    const c = await createTestClient([Checkout], { capabilities: { elicitation: {} } });
    clients.push(c);
    const first = await c.callTool("pay", { cents: 500 });
    expect((await first.answer({ confirm: accept({ answer: "yes" }) })).text).toBe("receipt 1: 500 cents");
    // The same final round again (a retry after a lost response, or a replay): the same receipt.
    expect((await first.answer({ confirm: accept({ answer: "yes" }) })).text).toBe("receipt 1: 500 cents");
    const second = await c.callTool("pay", { cents: 500 });
    expect((await second.answer({ confirm: accept({ answer: "yes" }) })).text).toBe("receipt 2: 500 cents");
  });
});
