/*
 * Pins Elicitation.form / Elicitation.url:
 * - form returns a bare { method: "elicitation/create", params: { mode: "form", message,
 *   requestedSchema } }: mode written, no jsonrpc, id or elicitationId;
 * - form takes a schema or a DTO class, validates at build time (ElicitationSchemaError), and
 *   returns a frozen copy independent of the caller's object;
 * - form and url reject an empty or blank message;
 * - url accepts absolute http(s) URLs with a host and rejects relative, ftp:, javascript:,
 *   data:, userinfo, missing host, whitespace and unparseable URLs;
 * - built requests are assignable to the wire InputRequest type.
 */
import { IsEmail } from "class-validator";
import { Elicitation } from "../../../src/elicitation/elicitation";
import { ElicitationSchemaError } from "../../../src/schema/elicitation-schema-error";
import { InputRequestError } from "../../../src/elicitation/input-request-error";
import type { FormSchema } from "../../../src/protocol/form-schema";
import type { InputRequest } from "../../../src/protocol/input-request";

const nameSchema: FormSchema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

describe("Elicitation.form", () => {
  it("returns a bare form request with mode written explicitly", () => {
    const request = Elicitation.form("Your name?", nameSchema);
    expect(request).toEqual({
      method: "elicitation/create",
      params: { mode: "form", message: "Your name?", requestedSchema: nameSchema },
    });
    expect(Object.keys(request).sort()).toEqual(["method", "params"]);
    expect(Object.keys(request.params).sort()).toEqual(["message", "mode", "requestedSchema"]);
    const wire: InputRequest = request; // compile-time: fits the wire union
    expect(wire.method).toBe("elicitation/create");
  });

  it("accepts a DTO class and uses its converted schema", () => {
    class Contact {
      @IsEmail() email!: string;
    }
    expect(Elicitation.form("Contact?", Contact).params.requestedSchema).toEqual({
      type: "object",
      properties: { email: { type: "string", format: "email" } },
      required: ["email"],
    });
  });

  it("validates the schema at build time", () => {
    expect(() => Elicitation.form("Zip?", { type: "object", properties: { zip: { type: "string", pattern: "^\\d+$" } } } as never)).toThrow(
      ElicitationSchemaError,
    );
  });

  it("returns a frozen copy that later edits of the input cannot reach", () => {
    const schema = { type: "object" as const, properties: { name: { type: "string" as const } } };
    const request = Elicitation.form("Name?", schema);
    (schema.properties as Record<string, unknown>).extra = { type: "object" };
    expect(request.params.requestedSchema.properties).toEqual({ name: { type: "string" } });
    expect(Object.isFrozen(request)).toBe(true);
    expect(Object.isFrozen(request.params.requestedSchema.properties.name)).toBe(true);
  });

  it.each(["", "   "])("rejects the message %j", (message) => {
    expect(() => Elicitation.form(message, nameSchema)).toThrow(InputRequestError);
  });
});

describe("Elicitation.url", () => {
  it("returns a bare url request without elicitationId", () => {
    expect(Elicitation.url("Connect your calendar", "https://app.example.com/connect?x=1")).toEqual({
      method: "elicitation/create",
      params: { mode: "url", message: "Connect your calendar", url: "https://app.example.com/connect?x=1" },
    });
  });

  it.each(["http://localhost:8080/cb", "https://example.com", "HTTPS://EXAMPLE.COM/a", "https://[::1]/x", "https://127.0.0.1/"])(
    "accepts %s",
    (url) => expect(Elicitation.url("Open", url).params.url).toBe(url),
  );

  it.each([
    ["relative path", "/connect"],
    ["scheme-relative", "//example.com/connect"],
    ["bare host", "example.com"],
    ["ftp", "ftp://example.com/file"],
    ["javascript", "javascript:alert(1)"],
    ["data", "data:text/html,hi"],
    ["file", "file:///etc/passwd"],
    ["userinfo", "https://user:pass@example.com/"],
    ["user only", "https://user@example.com/"],
    ["empty userinfo", "https://@example.com/"],
    ["no host", "https:///path"],
    ["no slashes", "https:example.com"],
    ["empty", ""],
    ["whitespace", "https://exa mple.com"],
    ["newline", "https://example.com/\n"],
    ["unparseable", "https://exa%mple.com"],
  ])("rejects a %s URL", (_name, url) => {
    expect(() => Elicitation.url("Open", url)).toThrow(InputRequestError);
  });

  it("rejects a non-string url and an empty message", () => {
    expect(() => Elicitation.url("Open", 42 as never)).toThrow(InputRequestError);
    expect(() => Elicitation.url("", "https://example.com")).toThrow(/message/);
  });
});
