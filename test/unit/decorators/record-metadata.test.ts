// Pins what the decorators record (plain data under symbol keys, read once by the registry) and
// that they only record: nothing is checked or built at decoration time beyond the shape of the
// declaration itself.
// - @Tool, @Resource, @Prompt on methods: one declaration each, in source order, with the method
//   name and the options as given; on a class: one declaration for its handle() method
// - an invalid option (a bad name) is recorded as is: the registry refuses it at McpApp.create
// - a component method named by a symbol is refused
// - @Arg(), @Arg(name), @Ctx(), @Elicit(key, source, options) and @OperationId() record one entry per parameter,
//   by position, read back in positional order; two on one parameter, or one on a constructor
//   parameter, are refused naming the class and method
// - @UseMiddleware on a class and on a method: class middleware first, then the method's, in order
// - @Complete records a provider per property; a subclass sees its parent's and overrides them
import "reflect-metadata";
import { Arg, Complete, Ctx, Elicit, OperationId, Prompt, Resource, Tool, UseMiddleware, type Middleware } from "../../../src/index";
import { componentDeclarations, paramDeclarations } from "../../../src/decorators/component-declaration";
import { declaredMiddleware } from "../../../src/decorators/use-middleware";
import { completionProviders } from "../../../src/decorators/complete";

class Form {
  color!: string;
}

describe("component decorators", () => {
  it("record one declaration per decorated method, in source order, with the options as given", () => {
    const toolOptions = { description: "Adds", annotations: { readOnlyHint: true } };
    class Service {
      @Tool(toolOptions) add() {}
      @Resource({ uriTemplate: "notes://{id}", mimeType: "text/plain" }) note() {}
      @Prompt() review() {}
      helper() {}
    }
    expect(componentDeclarations(Service)).toEqual([
      { kind: "tool", methodName: "add", options: toolOptions },
      { kind: "resource", methodName: "note", options: { uriTemplate: "notes://{id}", mimeType: "text/plain" } },
      { kind: "prompt", methodName: "review", options: {} },
    ]);
    expect(componentDeclarations(Service)[0]!.options).toBe(toolOptions);
  });

  it("declare a class component whose handle() runs", () => {
    @Tool({ name: "ping" })
    class Ping {
      handle() {
        return "pong";
      }
    }
    expect(componentDeclarations(Ping)).toEqual([{ kind: "tool", methodName: "handle", options: { name: "ping" } }]);
  });

  it("record without checking: a bad name is left for the registry to refuse", () => {
    class Loose {
      @Tool({ name: "not a valid name!" }) loose() {}
    }
    expect(componentDeclarations(Loose)).toEqual([{ kind: "tool", methodName: "loose", options: { name: "not a valid name!" } }]);
  });

  it("refuse a method named by a symbol", () => {
    const method = Symbol("tool");
    expect(() => {
      class Symbolic {
        @Tool() [method]() {}
      }
      return Symbolic;
    }).toThrow(new TypeError("Symbolic: a component method must have a string name"));
  });
});

describe("parameter decorators", () => {
  it("record one entry per parameter, read back in positional order", () => {
    const options = { message: "Colour?", onDecline: "optional" as const };
    class Handler {
      @Tool()
      run(
        @Elicit("color", Form, options) _color: Form,
        @Ctx() _ctx: unknown,
        @Arg() _args: unknown,
        @Arg("id") _id: string,
        @OperationId() _op: string,
      ) {}
    }
    expect(paramDeclarations(Handler, "run")).toEqual([
      { index: 0, kind: "elicit", key: "color", schema: Form, options },
      { index: 1, kind: "ctx" },
      { index: 2, kind: "arg", name: undefined },
      { index: 3, kind: "arg", name: "id" },
      { index: 4, kind: "operationId" },
    ]);
    expect(paramDeclarations(Handler, "other")).toEqual([]);
  });

  it("refuse two decorators on one parameter, and constructor parameters", () => {
    expect(() => {
      class Twice {
        @Tool() run(@Arg() @Ctx() _x: unknown) {}
      }
      return Twice;
    }).toThrow(new TypeError("Twice.run: parameter 0 has more than one roundtrip-mcp decorator"));
    expect(() => {
      class Injected {
        constructor(@Arg() readonly x: unknown) {}
      }
      return Injected;
    }).toThrow(new TypeError("Injected: parameter decorators of roundtrip-mcp go on handler methods, not constructors"));
  });
});

describe("@UseMiddleware", () => {
  it("records class middleware before method middleware, each in order", () => {
    const pass = (): Middleware => (_ctx, next) => next();
    const [a, b, c] = [pass(), pass(), pass()];
    @UseMiddleware(a)
    class Guarded {
      @UseMiddleware(b, c) @Tool() first() {}
      @Tool() second() {}
    }
    expect(declaredMiddleware(Guarded, "first")).toEqual([a, b, c]);
    expect(declaredMiddleware(Guarded, "second")).toEqual([a]);
  });
});

describe("@Complete", () => {
  it("records a provider per property; a subclass inherits and overrides them", () => {
    const languages = () => ["en", "fr"];
    const levels = () => ["low", "high"];
    const narrower = () => ["en"];
    class Base {
      @Complete(languages) language!: string;
      @Complete(levels) level!: string;
    }
    class Narrow extends Base {
      @Complete(narrower) override language = "";
    }
    expect(completionProviders(Base)).toEqual({ language: languages, level: levels });
    expect(completionProviders(Narrow)).toEqual({ language: narrower, level: levels });
  });
});
