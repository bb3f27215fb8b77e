// Pins: McpApp.create fails at build time, naming the class and method, for
// - duplicate tool, prompt, resource uri and template names
// - invalid names (empty, too long, bad characters)
// - a resource template with a variable not bound to a parameter (and an @Arg naming no variable)
// - a DTO the schema generator cannot express, a non-string prompt argument
// - a parameter with no decorator, @Arg() on a non-DTO type, a missing handle() method
// - @Elicit: duplicate keys, unknown or cyclic `after`, an unsupported question schema
// - a class with no component declaration, a missing state configuration
// - a component timeoutMs that is not a positive integer
import "reflect-metadata";
import { IsInt, IsString, Validate, ValidatorConstraint, type ValidatorConstraintInterface } from "class-validator";
import { Arg, Elicit, McpApp, Prompt, RegistrationError, Resource, Tool } from "../../../src/index";
import { SilentLogger } from "../../../src/testing/index";

const state = { secret: "s".repeat(40) };
const build =
  (...components: Function[]) =>
  () =>
    McpApp.create({ components, state, logger: new SilentLogger() });

function expectRegistrationError(fn: () => unknown, ...fragments: string[]): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(RegistrationError);
  for (const fragment of fragments) expect((caught as Error).message).toContain(fragment);
}

describe("bootstrap errors", () => {
  it("rejects a component timeoutMs that is not a positive integer", () => {
    class Slow {
      @Tool({ timeoutMs: 0 }) wait() {
        return "done";
      }
    }
    expectRegistrationError(build(Slow), "Slow.wait", "timeoutMs must be a positive integer");
    class Resource1 {
      @Resource({ uri: "x://slow", timeoutMs: 2.5 }) read() {
        return "x";
      }
    }
    expectRegistrationError(build(Resource1), "Resource1.read", "timeoutMs");
  });

  it("names both places for a duplicate tool name", () => {
    class A {
      @Tool({ name: "same" }) one() {
        return "1";
      }
    }
    class B {
      @Tool({ name: "same" }) two() {
        return "2";
      }
    }
    expectRegistrationError(build(A, B), "B.two", 'duplicate tool name "same"', "A.one");
  });

  it("rejects duplicate prompt names, resource uris and templates", () => {
    class P {
      @Prompt({ name: "p" }) a() {
        return "a";
      }
      @Prompt({ name: "p" }) b() {
        return "b";
      }
    }
    expectRegistrationError(build(P), "P.b", 'duplicate prompt name "p"');
    class R {
      @Resource({ uri: "x://1" }) a() {
        return "a";
      }
      @Resource({ uri: "x://1" }) b() {
        return "b";
      }
    }
    expectRegistrationError(build(R), "R.b", 'duplicate resource uri "x://1"');
    class T {
      @Resource({ uriTemplate: "x://{id}" }) a(@Arg("id") id: string) {
        return id;
      }
      @Resource({ uriTemplate: "x://{id}" }) b(@Arg("id") id: string) {
        return id;
      }
    }
    expectRegistrationError(build(T), "T.b", 'duplicate resource template "x://{id}"');
  });

  it.each([
    ["", "empty"],
    ["a".repeat(129), "too long"],
    ["has space", "space"],
    ["slash/name", "slash"],
  ])("rejects the invalid name %j (%s)", (name) => {
    class Bad {
      @Tool({ name }) run() {
        return "x";
      }
    }
    expectRegistrationError(build(Bad), "Bad.run", "invalid tool name");
  });

  it("accepts a 128-character name of every allowed character class", () => {
    class Good {
      @Tool({ name: "A-z_0.9".padEnd(128, "x") }) run() {
        return "x";
      }
    }
    expect(build(Good)).not.toThrow();
  });

  it("rejects a template variable bound to no parameter, and an @Arg naming no variable", () => {
    class Unbound {
      @Resource({ uriTemplate: "notes://{folder}/{id}" }) read(@Arg("id") id: string) {
        return id;
      }
    }
    expectRegistrationError(build(Unbound), "Unbound.read", "{folder}", "which no parameter binds", '@Arg("folder") folder: string');
    class Extra {
      @Resource({ uriTemplate: "notes://{id}" }) read(@Arg("id") id: string, @Arg("other") other: string) {
        return id + other;
      }
    }
    expectRegistrationError(build(Extra), "Extra.read", 'parameter 1 is @Arg("other"), which is not a variable');
    class Operator {
      @Resource({ uriTemplate: "notes://{+path}" }) read(@Arg("path") p: string) {
        return p;
      }
    }
    expectRegistrationError(build(Operator), "Operator.read", "only simple {name} expansions");
  });

  it("rejects a DTO the schema generator cannot express", () => {
    @ValidatorConstraint()
    class Even implements ValidatorConstraintInterface {
      validate(v: unknown) {
        return v === 2;
      }
    }
    class Args {
      @Validate(Even) value!: number | string;
    }
    class Uses {
      @Tool() run(@Arg() args: Args) {
        return String(args.value);
      }
    }
    expectRegistrationError(build(Uses), "Uses.run", "Args.value", "cannot express");
  });

  it("rejects a non-string prompt argument", () => {
    class Args {
      @IsInt() count!: number;
    }
    class P {
      @Prompt() p(@Arg() args: Args) {
        return String(args.count);
      }
    }
    expectRegistrationError(build(P), "P.p", '"count"', "string");
  });

  it("rejects an undecorated parameter, a non-DTO @Arg and a missing handle()", () => {
    class Loose {
      @Tool() run(a: string, b: string) {
        return a + b;
      }
    }
    expectRegistrationError(build(Loose), "Loose.run", "parameter 0 has no @Arg");
    class NotDto {
      @Tool() run(@Arg() a: string) {
        return a;
      }
    }
    expectRegistrationError(build(NotDto), "NotDto.run", "must be typed with a DTO class (found String)");
    @Tool({ name: "nohandle" })
    class NoHandle {}
    expectRegistrationError(build(NoHandle), "NoHandle.handle", "handle() method");
  });

  it("rejects @Elicit mistakes", () => {
    class Form {
      @IsString() answer!: string;
    }
    class Dup {
      @Tool() run(@Elicit("k", Form, { message: "a" }) a: Form, @Elicit("k", Form, { message: "b" }) b: Form) {
        return String(a) + String(b);
      }
    }
    expectRegistrationError(build(Dup), "Dup.run", '"k" used twice');
    class Proto {
      @Tool() run(@Elicit("__proto__", Form, { message: "a" }) a: Form) {
        return String(a);
      }
    }
    expectRegistrationError(build(Proto), "Proto.run", '@Elicit key "__proto__" is reserved; choose another key');
    class After {
      @Tool() run(@Elicit("k", Form, { message: "a", after: ["nope"] }) a: Form) {
        return String(a);
      }
    }
    expectRegistrationError(build(After), "After.run", 'after "nope"');
    class Cycle {
      @Tool() run(@Elicit("a", Form, { message: "a", after: ["b"] }) a: Form, @Elicit("b", Form, { message: "b", after: ["a"] }) b: Form) {
        return String(a) + String(b);
      }
    }
    expectRegistrationError(build(Cycle), "Cycle.run", "cycle");
    class BadSchema {
      @Tool() run(@Elicit("k", { type: "object", properties: { p: { type: "string", pattern: "^a" } } }, { message: "m" }) k: unknown) {
        return String(k);
      }
    }
    expectRegistrationError(build(BadSchema), "BadSchema.run", '@Elicit("k")', "pattern");
  });

  it("rejects a class with no component and an app without state configuration", () => {
    class Plain {}
    expectRegistrationError(build(Plain), "Plain", "no @Tool, @Resource or @Prompt");
    class Ok {
      @Tool() run() {
        return "x";
      }
    }
    expect(() => McpApp.create({ components: [Ok], logger: new SilentLogger() })).toThrow(/state option is required/);
  });
});

describe("x-mcp-header placement", () => {
  const tool = (input: Record<string, unknown>) => {
    class T {
      @Tool({ name: "t", arguments: input }) run() {
        return "x";
      }
    }
    return build(T);
  };
  it("accepts it on root string, integer and boolean properties", () => {
    expect(
      tool({
        type: "object",
        properties: {
          a: { type: "string", "x-mcp-header": "A" },
          b: { type: "integer", "x-mcp-header": "B" },
          c: { type: "boolean", "x-mcp-header": "C" },
        },
      }),
    ).not.toThrow();
  });
  it.each([
    [
      "a number property",
      { type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } },
      "needs type string, integer or boolean",
    ],
    [
      "inside items",
      { type: "object", properties: { list: { type: "array", items: { type: "string", "x-mcp-header": "L" } } } },
      "#/properties/list/items",
    ],
    [
      "inside anyOf",
      { type: "object", properties: {}, anyOf: [{ properties: { x: { type: "string", "x-mcp-header": "X" } } }] },
      "#/anyOf",
    ],
    [
      "inside $defs",
      { type: "object", properties: { r: { $ref: "#/$defs/d" } }, $defs: { d: { type: "string", "x-mcp-header": "D" } } },
      "#/$defs/d",
    ],
    [
      "a duplicate, case-insensitively",
      { type: "object", properties: { a: { type: "string", "x-mcp-header": "Same" }, b: { type: "string", "x-mcp-header": "same" } } },
      "declared twice",
    ],
    ["a non-token name", { type: "object", properties: { a: { type: "string", "x-mcp-header": "has space" } } }, "RFC 9110 token"],
  ])("rejects %s", (_label, input, fragment) => {
    expectRegistrationError(tool(input), "T.run", fragment as string);
  });
});
