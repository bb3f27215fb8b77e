// The app's components: one decorated class with a tool that asks the user two questions
// (@Elicit), a resource template and a prompt. Arguments and answers are class-validator DTOs: their
// decorators become the JSON Schemas clients see, and every call is validated against them.
import { IsBoolean, IsIn, IsString, MaxLength, MinLength } from "class-validator";
import { injectable } from "tsyringe";
import { Arg, ErrorCode, Elicit, JSONSchema, McpError, OperationId, Prompt, Resource, Result, Scopes, Tool } from "roundtrip-mcp";
import { PRIORITIES, TicketStore, type Priority } from "./ticket-store";

export class OpenTicketArgs {
  @IsString() @MinLength(3) @MaxLength(120) @JSONSchema({ description: "What went wrong, in one line" }) title!: string;
}

export class PriorityChoice {
  @IsIn([...PRIORITIES]) @JSONSchema({ title: "Priority" }) priority!: Priority;
}

export class Confirmation {
  @IsBoolean() @JSONSchema({ title: "Open the ticket" }) confirm!: boolean;
}

export class TicketRef {
  @IsString() @JSONSchema({ description: "The ticket's id" }) id!: string;
}

/** Scopes matter behind OAuth only: stdio and plain HTTP callers are not restricted. */
@injectable()
@Scopes("tickets:read")
export class TicketDesk {
  constructor(private readonly store: TicketStore) {}

  @Tool({ description: "Opens a support ticket, asking its priority, then a confirmation", scopes: ["tickets:write"] })
  open_ticket(
    @Arg() args: OpenTicketArgs,
    @Elicit("priority", PriorityChoice, { message: "How urgent is it?" }) choice: PriorityChoice,
    @Elicit("confirm", Confirmation, {
      message: (answers) => `Open it as ${(answers.priority as PriorityChoice).priority}?`,
      after: ["priority"],
    })
    confirmation: Confirmation,
    @OperationId() operationId: string,
  ) {
    if (!confirmation.confirm) return Result.structured({ opened: false }, "Nothing was opened.");
    // Keyed on the operation id: a client that replays the last round gets the same ticket.
    const ticket = this.store.open(args.title, choice.priority, operationId);
    return Result.structured({ opened: true, ticket }, `Opened ticket ${ticket.id} (${ticket.priority}): ${ticket.title}`);
  }

  /** Returning undefined is "not found": the client gets -32602 with the URI. */
  @Resource({ uriTemplate: "tickets://{id}", name: "ticket", description: "A ticket, as JSON", mimeType: "application/json" })
  ticket(@Arg("id") id: string): string | undefined {
    const ticket = this.store.get(id);
    return ticket && JSON.stringify(ticket);
  }

  @Prompt({ description: "Drafts a first reply to a ticket" })
  draft_reply(@Arg() args: TicketRef): string {
    const ticket = this.store.get(args.id);
    if (ticket === undefined) throw new McpError(ErrorCode.InvalidParams, `No ticket ${args.id}`, { id: args.id });
    return `Draft a short, friendly first reply to this ${ticket.priority} support ticket: "${ticket.title}".`;
  }
}
