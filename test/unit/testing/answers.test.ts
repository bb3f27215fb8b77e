// Pins the answer builders of roundtrip-mcp/testing: the bare 2026-07-28 InputResponse bodies
// (accept with and without content, decline, cancel, sampling text and blocks with defaults, roots
// from URIs and objects).
import { accept, cancel, decline, clientRoots, modelReply } from "roundtrip-mcp/testing";

describe("answer builders", () => {
  it("build elicitation answers", () => {
    expect(accept({ color: "green", tags: ["a"], n: 2, ok: true })).toEqual({
      action: "accept",
      content: { color: "green", tags: ["a"], n: 2, ok: true },
    });
    expect(accept()).toEqual({ action: "accept" });
    expect(accept()).not.toHaveProperty("content");
    expect(decline()).toEqual({ action: "decline" });
    expect(cancel()).toEqual({ action: "cancel" });
  });

  it("build sampling and roots answers", () => {
    expect(modelReply("Paris")).toEqual({ role: "assistant", content: { type: "text", text: "Paris" }, model: "test-model" });
    expect(modelReply({ type: "image", data: "AA==", mimeType: "image/png" }, { model: "m", stopReason: "endTurn" })).toEqual({
      role: "assistant",
      content: { type: "image", data: "AA==", mimeType: "image/png" },
      model: "m",
      stopReason: "endTurn",
    });
    expect(clientRoots("file:///a", { uri: "file:///b", name: "B" })).toEqual({
      roots: [{ uri: "file:///a" }, { uri: "file:///b", name: "B" }],
    });
    expect(clientRoots()).toEqual({ roots: [] });
  });
});
