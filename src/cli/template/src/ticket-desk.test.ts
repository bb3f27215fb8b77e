// End-to-end tests of the app with roundtrip-mcp's testing kit: an in-process client that speaks
// MCP 2026-07-28 through the app's real dispatcher, round by round. Run them with `npm test`.
import "reflect-metadata";
import { accept, createTestClient, decline, MemoryLogger, type TestClient } from "roundtrip-mcp/testing";
import { createApp } from "./app";

describe("the ticket desk", () => {
  let client: TestClient;
  beforeEach(async () => {
    // The client declares form elicitation: a server may only ask what the client can show.
    client = await createTestClient(createApp({ logger: new MemoryLogger() }), { capabilities: { elicitation: { form: {} } } });
  });
  afterEach(async () => {
    await client.close();
    await client.app.close();
  });

  it("opens a ticket, answering each round in turn", async () => {
    const round1 = await client.callTool("open_ticket", { title: "The printer is on fire" });
    expect(round1.status).toBe("input_required");
    expect(round1.keys).toEqual(["priority"]);
    expect(round1.asked("priority").message).toBe("How urgent is it?");
    expect(round1.asked("priority").choices).toEqual(["low", "normal", "urgent"]);

    const round2 = await round1.answer({ priority: accept({ priority: "urgent" }) });
    expect(round2.keys).toEqual(["confirm"]);
    expect(round2.asked("confirm").message).toBe("Open it as urgent?");

    const done = await round2.answer({ confirm: accept({ confirm: true }) });
    expect(done.status).toBe("complete");
    expect(done.rounds).toBe(3);
    const { ticket } = done.result.structuredContent as { ticket: { id: string; title: string; priority: string } };
    expect(ticket).toMatchObject({ title: "The printer is on fire", priority: "urgent" });

    // The resource and the prompt see the new ticket.
    const read = await client.readResource(`tickets://${ticket.id}`);
    expect(JSON.parse(read.text)).toMatchObject({ id: ticket.id, priority: "urgent" });
    const prompt = await client.getPrompt("draft_reply", { id: ticket.id });
    expect(prompt.text).toContain('urgent support ticket: "The printer is on fire"');
  });

  it("opens one ticket when the last round is sent twice", async () => {
    const round2 = await (await client.callTool("open_ticket", { title: "Sent twice" })).answer({ priority: accept({ priority: "low" }) });
    const first = await round2.answer({ confirm: accept({ confirm: true }) });
    const again = await round2.answer({ confirm: accept({ confirm: true }) });
    expect(again.result.structuredContent).toEqual(first.result.structuredContent);
  });

  it("ends when the user declines, and opens nothing when the user says no", async () => {
    const round1 = await client.callTool("open_ticket", { title: "Never mind" });
    const declined = await round1.answer({ priority: decline() });
    expect(declined.result.isError).toBe(true);
    expect(declined.text).toBe('The question "priority" was declined; the operation ended.');

    const round2 = await round1.answer({ priority: accept({ priority: "normal" }) });
    const refused = await round2.answer({ confirm: accept({ confirm: false }) });
    expect(refused.result.structuredContent).toEqual({ opened: false });
  });

  it("names the failing field when the arguments are wrong", async () => {
    const flow = await client.callTool("open_ticket", { title: "no" });
    expect(flow.status).toBe("complete");
    expect(flow.result.isError).toBe(true);
    expect(flow.text).toContain("title: minLength");
  });

  it("answers -32602 for a ticket that does not exist", async () => {
    const read = await client.readResource("tickets://nope");
    expect(read.status).toBe("error");
    expect(read.error).toMatchObject({ code: -32602, data: { uri: "tickets://nope" } });
    const prompt = await client.getPrompt("draft_reply", { id: "nope" });
    expect(prompt.error).toMatchObject({ code: -32602, message: "No ticket nope" });
  });
});
