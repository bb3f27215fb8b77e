// Pins the mistakes a first application made, each refused by McpApp.create() with a
// RegistrationError naming the class, the method or constructor parameter, and the fix:
// - a DTO with no class-validator decorators, wherever a DTO is accepted: a tool's @Arg() parameter,
//   its lone arguments DTO, its arguments and output options, a prompt's arguments, an @Elicit
//   form, a nested DTO; each message says what to add and how to declare the component without one
// - a DTO whose decorators are all inherited from a base class is accepted everywhere (class-validator
//   validates it), and so is a recursive DTO
// - a computed question written as `function x() {}`: the message tells an arrow function from a DTO
// - constructor dependencies, built at create(): a component without @injectable(), an
//   interface-typed parameter (directly or deeper down), a dependency without @injectable(), an
//   unregistered token, a constructor that throws; the message names the class, the parameter
//   position, its type or token when known, and the fix
// - components are built once, at create(): the instance built then serves every call
import "reflect-metadata";
import { Type } from "class-transformer";
import { IsArray, IsOptional, IsString, ValidateNested } from "class-validator";
import { container as rootContainer, inject, injectable } from "tsyringe";
import { Arg, Elicit, McpApp, Prompt, RegistrationError, Tool } from "../../../src/index";
import { createTestClient, SilentLogger } from "../../../src/testing/index";

const state = { secret: "m".repeat(40) };
const build =
  (...components: Function[]) =>
  () =>
    McpApp.create({ components, state, logger: new SilentLogger() });

function registrationError(fn: () => unknown): RegistrationError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(RegistrationError);
    return error as RegistrationError;
  }
  throw new Error("expected a RegistrationError");
}

function expectRefused(fn: () => unknown, ...fragments: string[]): void {
  const { message } = registrationError(fn);
  for (const fragment of fragments) expect(message).toContain(fragment);
}

/** A DTO written as a plain class: TypeScript types, no class-validator decorators. */
class Bare {
  name!: string;
}

class Labelled {
  @IsString() label!: string;
}

const TYPE_DECORATOR = "a type decorator such as @IsString()";

describe("a DTO with no class-validator decorators", () => {
  it("is refused as a tool's @Arg() parameter, saying what to add and how to take no arguments", () => {
    class Trips {
      @Tool() plan(@Arg() args: Bare) {
        return args.name;
      }
    }
    expectRefused(
      build(Trips),
      "Trips.plan: parameter 0 (@Arg()): Bare has no class-validator decorators",
      "unknownValue",
      TYPE_DECORATOR,
      "@IsOptional()",
      "A tool without arguments takes no @Arg() parameter.",
    );
    class Later {
      @Tool() plan(@Elicit("label", Labelled, { message: "Label?" }) label: Labelled, @Arg() args: Bare) {
        return label.label + args.name;
      }
    }
    expectRefused(build(Later), "Later.plan: parameter 1 (@Arg()): Bare has no class-validator decorators");
  });

  it("is refused as a lone undecorated arguments DTO, and as the arguments option", () => {
    class Lone {
      @Tool() plan(args: Bare) {
        return args.name;
      }
    }
    expectRefused(build(Lone), "Lone.plan: parameter 0 (the arguments DTO): Bare has no class-validator decorators");
    class Option {
      @Tool({ arguments: Bare }) plan() {
        return "x";
      }
    }
    expectRefused(
      build(Option),
      "Option.plan: the arguments option: Bare has no class-validator decorators",
      "A tool without arguments leaves the arguments option out.",
    );
  });

  it("is refused as a tool's output", () => {
    class Output {
      @Tool({ output: Bare }) plan() {
        return { name: "x" };
      }
    }
    expectRefused(
      build(Output),
      "Output.plan: the output option: Bare has no class-validator decorators",
      TYPE_DECORATOR,
      "A tool without structured output leaves the output option out.",
    );
  });

  it("is refused as a prompt's arguments", () => {
    class Prompts {
      @Prompt() brief(@Arg() args: Bare) {
        return args.name;
      }
    }
    expectRefused(
      build(Prompts),
      "Prompts.brief: parameter 0 (@Arg()): Bare has no class-validator decorators",
      "A prompt without arguments takes no @Arg() parameter.",
    );
  });

  it("is refused as an @Elicit form, naming the parameter and the form decorators", () => {
    class Asks {
      @Tool() plan(@Arg() args: Labelled, @Elicit("who", Bare, { message: "Who?" }) who: Bare) {
        return args.label + who.name;
      }
    }
    expectRefused(
      build(Asks),
      'Asks.plan: parameter 1 (@Elicit("who")): Cannot use Bare as an elicitation schema',
      "no class-validator decorators",
      "@IsString()",
      "@IsIn([...])",
    );
  });

  it("is refused when nested, naming the property that holds it", () => {
    class Holder {
      @ValidateNested() @Type(() => Bare) inner!: Bare;
    }
    class Nests {
      @Tool() plan(@Arg() args: Holder) {
        return args.inner.name;
      }
    }
    expectRefused(
      build(Nests),
      "Nests.plan: parameter 0 (@Arg()): Holder.inner is a nested Bare, which has no class-validator decorators",
      "@ValidateNested()",
    );
  });

  it("is accepted when every decorator is inherited from a base class, everywhere a DTO goes", async () => {
    class Base {
      @IsString() name!: string;
    }
    class Derived extends Base {}
    class Inherits {
      @Tool({ output: Derived }) echo(@Arg() args: Derived) {
        return { name: args.name };
      }
      @Prompt() greet(@Arg() args: Derived) {
        return `Hello ${args.name}`;
      }
      @Tool() ask(@Elicit("who", Derived, { message: "Who?" }) who: Derived) {
        return who.name;
      }
    }
    const client = await createTestClient([Inherits], { capabilities: { elicitation: {} } });
    try {
      expect((await client.callTool("echo", { name: "Ada" })).result.structuredContent).toEqual({ name: "Ada" });
      expect((await client.getPrompt("greet", { name: "Bo" })).status).toBe("complete");
      const asked = await client.callTool("ask");
      expect((await asked.answer({ who: { action: "accept", content: { name: "Cy" } } })).text).toBe("Cy");
    } finally {
      await client.close();
    }
  });

  it("is accepted when recursive", async () => {
    class Folder {
      @IsString() name!: string;
      @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => Folder) folders?: Folder[];
    }
    class Tree {
      @Tool() count(@Arg() args: Folder) {
        const walk = (f: Folder): number => 1 + (f.folders ?? []).reduce((n, c) => n + walk(c), 0);
        return String(walk(args));
      }
    }
    const client = await createTestClient([Tree]);
    try {
      expect((await client.callTool("count", { name: "a", folders: [{ name: "b", folders: [{ name: "c" }] }] })).text).toBe("3");
      expect((await client.callTool("count", { name: "a", folders: [{ name: 5 }] })).text).toContain("folders.0.name: isString");
    } finally {
      await client.close();
    }
  });
});

describe("a computed question written with `function`", () => {
  it("is told apart from a DTO class in the message", () => {
    function shadeQuestion() {
      return { type: "object" as const, properties: { shade: { type: "string" as const, enum: ["navy"] } } };
    }
    class Shades {
      @Tool() pick(@Elicit("shade", shadeQuestion, { message: "Which?" }) shade: { shade: string }) {
        return shade.shade;
      }
    }
    expectRefused(
      build(Shades),
      'Shades.pick: parameter 0 (@Elicit("shade")): shadeQuestion is a function declared with `function`',
      "an arrow function, (answers, ctx) => source",
      "a DTO is a class with class-validator decorators",
    );
  });

  it("works as an arrow function", () => {
    const shadeQuestion = () => ({ type: "object" as const, properties: { shade: { type: "string" as const, enum: ["navy"] } } });
    class Shades {
      @Tool() pick(@Elicit("shade", shadeQuestion, { message: "Which?" }) shade: { shade: string }) {
        return shade.shade;
      }
    }
    expect(build(Shades)).not.toThrow();
  });
});

interface TripStore {
  trips(): string[];
}
const TRIP_STORE = Symbol("TripStore");

class Calendar {
  constructor(readonly zone: string) {}
}

@injectable()
class Planner {
  constructor(readonly store: TripStore) {}
}

const CONTAINER_FIX = "the container cannot build this component";

describe("constructor dependencies, built at create()", () => {
  it("refuses a component with constructor parameters but no @injectable()", () => {
    class Trips {
      constructor(readonly planner: Planner) {}
      @Tool() list() {
        return "x";
      }
    }
    expectRefused(
      build(Trips),
      `Trips: ${CONTAINER_FIX}`,
      "its constructor takes 1 parameter(s) but Trips is not @injectable()",
      "Add @injectable() (from tsyringe) to Trips",
    );
  });

  it("refuses an interface-typed parameter, directly or deeper down, pointing to @inject(token)", () => {
    @injectable()
    class Trips {
      constructor(readonly store: TripStore) {}
      @Tool() list() {
        return "x";
      }
    }
    expectRefused(
      build(Trips),
      `Trips: ${CONTAINER_FIX}`,
      "parameter 0 of Trips is typed with an interface",
      "reflects as Object",
      "@inject(TOKEN)",
      "register TOKEN in the container",
    );
    @injectable()
    class Agenda {
      constructor(readonly planner: Planner) {}
      @Tool() list() {
        return "x";
      }
    }
    expectRefused(
      build(Agenda),
      "Agenda: ",
      "parameter 0 of Planner (reached through parameter 0 of Agenda) is typed with an interface",
      "@inject(TOKEN)",
    );
  });

  it("refuses a dependency the container cannot construct, naming its type", () => {
    @injectable()
    class Trips {
      constructor(readonly calendar: Calendar) {}
      @Tool() list() {
        return "x";
      }
    }
    expectRefused(
      build(Trips),
      "parameter 0 of Trips (type Calendar): Calendar is not @injectable() and not registered in the container",
      "Add @injectable() (from tsyringe) to Calendar, or register it",
    );
  });

  it("refuses an unregistered token, naming it", () => {
    @injectable()
    class Trips {
      constructor(@inject(TRIP_STORE) readonly store: TripStore) {}
      @Tool() list() {
        return "x";
      }
    }
    expectRefused(
      build(Trips),
      "parameter 0 of Trips (@inject(Symbol(TripStore))): that token is not registered in the container",
      "Register it before McpApp.create()",
    );
  });

  it("refuses a constructor that throws, with its message", () => {
    @injectable()
    class Trips {
      constructor() {
        throw new Error("database unreachable");
      }
      @Tool() list() {
        return "x";
      }
    }
    const error = registrationError(build(Trips));
    expect(error.message).toBe(
      `Trips: ${CONTAINER_FIX} (McpApp.create builds every component): its constructor threw: database unreachable`,
    );
    expect((error.cause as Error).message).toBe("database unreachable");
  });

  it("builds each component once, at create(), and serves every call with that instance", async () => {
    const built: object[] = [];
    @injectable()
    class Counter {
      private calls = 0;
      constructor(@inject(TRIP_STORE) readonly store: TripStore) {
        built.push(this);
      }
      @Tool() count() {
        return `${++this.calls} ${this.store.trips().join(",")}`;
      }
    }
    const container = rootContainer.createChildContainer();
    container.registerInstance(TRIP_STORE, { trips: () => ["Oslo"] });
    const app = McpApp.create({ components: [Counter], container, state, logger: new SilentLogger() });
    expect(built).toHaveLength(1);
    const client = await createTestClient(app);
    try {
      expect((await client.callTool("count")).text).toBe("1 Oslo");
      expect((await client.callTool("count")).text).toBe("2 Oslo");
      expect(built).toHaveLength(1);
    } finally {
      await client.close();
      await app.close();
    }
  });
});
