// Pins what a 2025-era client is asked (server/request/legacy-shape.ts legacyElicitParams):
// - from 2025-11-25 on, a question goes as the framework made it;
// - to 2025-06-18 a form goes without `mode`, its titled single choice as enum + enumNames;
// - to 2025-06-18 a URL question goes whole (mode, url, elicitationId): only a client that declared
//   elicitation.url at initialize is sent one (Codex does at 2025-06-18), and without `mode` it was
//   neither a form nor a URL question (Codex refused it: "data did not match any variant").
import { legacyElicitParams } from "../../../../src/server/request/legacy-shape";

const URL_QUESTION = { mode: "url", message: "Open the preview?", url: "http://localhost/preview", elicitationId: "abc" };
const FORM = {
  mode: "form",
  message: "Which size?",
  requestedSchema: {
    type: "object",
    properties: { size: { type: "string", oneOf: [{ const: "s", title: "Small" }] } },
    required: ["size"],
  },
};

describe("legacyElicitParams", () => {
  it("sends a 2025-11-25 client every question as it is", () => {
    expect(legacyElicitParams(FORM, "2025-11-25")).toBe(FORM);
    expect(legacyElicitParams(URL_QUESTION, "2025-11-25")).toBe(URL_QUESTION);
  });

  it("sends a 2025-06-18 client a form without mode, a titled choice as enum + enumNames", () => {
    expect(legacyElicitParams(FORM, "2025-06-18")).toEqual({
      message: "Which size?",
      requestedSchema: {
        type: "object",
        properties: { size: { type: "string", enum: ["s"], enumNames: ["Small"] } },
        required: ["size"],
      },
    });
  });

  it("sends a 2025-06-18 client that was allowed a URL question the question whole", () => {
    expect(legacyElicitParams(URL_QUESTION, "2025-06-18")).toEqual(URL_QUESTION);
  });
});
