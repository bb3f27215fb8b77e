// Pins tamper: it keeps a state's length and alphabet in "flip" mode and changes exactly one
// character; "append" and "truncate" do what they say; bad input is refused.
import { tamper } from "roundtrip-mcp/testing";

describe("tamper", () => {
  const state = "rs1.k1.eyJhIjoxfQ.c2lnbmF0dXJl";

  it("flips one character, keeping length and alphabet", () => {
    const forged = tamper(state);
    expect(forged).not.toBe(state);
    expect(forged).toHaveLength(state.length);
    expect([...forged].filter((c, i) => c !== state[i])).toHaveLength(1);
    expect(forged).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(tamper("....")).toBe("....-TAMPERED");
  });

  it("appends or truncates on request, and refuses a non-string", () => {
    expect(tamper(state, "append")).toBe(`${state}-TAMPERED`);
    expect(tamper(state, "truncate")).toBe(state.slice(0, -1));
    expect(() => tamper("")).toThrow(TypeError);
    expect(() => tamper(undefined as unknown as string)).toThrow(TypeError);
    expect(() => tamper(state, "rot13" as never)).toThrow(/unknown mode/);
  });
});
