// Pins the errors a new "support desk" application met (issue 23), each saying what to do:
// - compiled without emitDecoratorMetadata (no parameter types recorded): McpApp.create() names
//   the method and the compiler options to set, instead of "typed with a DTO class (found undefined)"
// - a missing required argument is reported as "<field>: required" first (with what a value must
//   be), not as the list of constraints a missing value breaks; a present but wrong one keeps them
// - a secret shorter than 32 bytes says how to make one (the randomBytes(32) one-liner)
// - @Matches in an @Elicit DTO says what the form subset offers instead
// - an @Arg("ticketId") on the template "tickets://{id}" names the template's unbound variable, the
//   mis-named @Arg and its position, and the parameter to write; a stray @Arg alone is named too
// - a transient dependency kept by two singleton components is a warning at create() naming it,
//   the components and the fix; none when it is registered as a singleton or kept by one component
import "reflect-metadata";
import { IsString, Matches, MaxLength, MinLength } from "class-validator";
import { container as rootContainer, injectable } from "tsyringe";
import { Arg, Elicit, McpApp, RegistrationError, Resource, Tool } from "../../../src/index";
import { createTestClient, MemoryLogger, SilentLogger } from "../../../src/testing/index";

const state = { secret: "d".repeat(40) };
const build =
  (...components: Function[]) =>
  () =>
    McpApp.create({ components, state, logger: new SilentLogger() });

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(RegistrationError);
    return (error as Error).message;
  }
  throw new Error("expected a RegistrationError");
}

class TicketArgs {
  @IsString() @MinLength(3) @MaxLength(40) subject!: string;
}

describe("without emitDecoratorMetadata", () => {
  it("names the compiler options instead of a type found undefined", () => {
    // Decorators applied by hand record no design types, as tsc does without the option.
    class Desk {
      open(args: TicketArgs) {
        return args.subject;
      }
    }
    Arg()(Desk.prototype, "open", 0);
    Tool()(Desk.prototype, "open", Object.getOwnPropertyDescriptor(Desk.prototype, "open")!);
    const message = messageOf(build(Desk));
    expect(message).toContain("Desk.open: the parameter types of this method were not recorded");
    expect(message).toContain(
      '"emitDecoratorMetadata": true (and "experimentalDecorators": true) in the compilerOptions of your tsconfig.json',
    );
    expect(message).not.toContain("found undefined");
  });

  it("names them too for a lone arguments DTO with no decorator", () => {
    class Lone {
      open(args: TicketArgs) {
        return args.subject;
      }
    }
    Tool()(Lone.prototype, "open", Object.getOwnPropertyDescriptor(Lone.prototype, "open")!);
    expect(messageOf(build(Lone))).toContain("Lone.open: the parameter types of this method were not recorded");
  });
});

describe("a missing required argument", () => {
  class Desk {
    @Tool() open(@Arg() args: TicketArgs) {
      return args.subject;
    }
  }

  it("says required first", async () => {
    const client = await createTestClient([Desk]);
    try {
      const missing = await client.callTool("open", {});
      expect(missing.result.isError).toBe(true);
      // "required" alone: not every length rule of a value that is not there.
      expect(missing.text).toContain("subject: required (subject is required)");
      expect(missing.text).not.toMatch(/subject: (isString|minLength|maxLength)/);
      const short = await client.callTool("open", { subject: "x" });
      expect(short.text).toContain("subject: minLength");
    } finally {
      await client.close();
    }
  });
});

describe("a short secret", () => {
  it("says how to make one", () => {
    expect(() => McpApp.create({ components: [], state: { secret: "support-desk" }, logger: new SilentLogger() })).toThrow(
      `option \`secret\` must be at least 32 bytes of cryptographically random data (a password or a word is not a secret); make one with: node -e "console.log(require('crypto').randomBytes(32).toString('base64'))"`,
    );
  });
});

describe("@Matches in an @Elicit DTO", () => {
  it("suggests what the form subset offers instead", () => {
    class Reference {
      @IsString() @Matches(/^T-\d+$/) ticket!: string;
    }
    class Desk {
      @Tool() link(@Elicit("ref", Reference, { message: "Which ticket?" }) ref: Reference) {
        return ref.ticket;
      }
    }
    const message = messageOf(build(Desk));
    expect(message).toContain("Matches");
    expect(message).toContain('has no equivalent in the elicitation form subset (a form has no "pattern")');
    expect(message).toContain("@IsIn([...])");
    expect(message).toContain("check the answer in the method");
  });
});

describe("an @Arg not bound to the URI template", () => {
  it("names the unbound variable, the mis-named @Arg and the parameter to write", () => {
    class Tickets {
      @Resource({ uriTemplate: "tickets://{id}" }) read(@Arg("ticketId") ticketId: string) {
        return ticketId;
      }
    }
    expect(messageOf(build(Tickets))).toBe(
      'Tickets.read: the template "tickets://{id}" has the variable(s) {id}, which no parameter binds, while parameter 0 is @Arg("ticketId"), ' +
        'which is not a variable of the template. Bind each variable with a parameter named after it: @Arg("id") id: string (or rename the template\'s variable to match the @Arg)',
    );
  });

  it("names a stray @Arg and the template's variables", () => {
    class Tickets {
      @Resource({ uriTemplate: "tickets://{id}" }) read(@Arg("id") id: string, @Arg("queue") queue: string) {
        return id + queue;
      }
    }
    expect(messageOf(build(Tickets))).toBe(
      'Tickets.read: parameter 1 is @Arg("queue"), which is not a variable of "tickets://{id}" (its variables: {id}); rename it to one of them or remove it',
    );
  });
});

describe("a transient dependency kept by singleton components", () => {
  @injectable()
  class TicketBook {
    readonly tickets = new Map<string, string>();
  }

  @injectable()
  class Intake {
    constructor(private readonly book: TicketBook) {}
    @Tool() file(@Arg() args: TicketArgs) {
      this.book.tickets.set("1", args.subject);
      return "1";
    }
  }

  @injectable()
  class Views {
    constructor(private readonly book: TicketBook) {}
    @Resource({ uriTemplate: "tickets://{id}" }) read(@Arg("id") id: string) {
      return this.book.tickets.get(id);
    }
  }

  const warnings = (logger: MemoryLogger) => logger.entries.filter((e) => e.level === "warn" && e.fields?.dependency !== undefined);

  it("is a warning at create() naming it, the components and the fix", () => {
    const logger = new MemoryLogger();
    McpApp.create({ components: [Intake, Views], state, logger, container: rootContainer.createChildContainer() });
    const found = warnings(logger);
    expect(found).toHaveLength(1);
    expect(found[0]!.fields).toEqual({ dependency: "TicketBook", components: ["Intake", "Views"] });
    expect(found[0]!.message).toContain("TicketBook is transient");
    expect(found[0]!.message).toContain("container.registerSingleton(TicketBook)");
  });

  it("is not one when the dependency is registered once, or kept by one component", () => {
    const logger = new MemoryLogger();
    const shared = rootContainer.createChildContainer();
    shared.registerSingleton(TicketBook);
    McpApp.create({ components: [Intake, Views], state, logger, container: shared });
    McpApp.create({ components: [Intake], state, logger, container: rootContainer.createChildContainer() });
    expect(warnings(logger)).toEqual([]);
  });
});
