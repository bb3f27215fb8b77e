// A tool that may run as a task (the 2026-07-28 tasks extension): a client that declares the
// extension gets a task id at once and polls tasks/get for the result; any other client gets the
// result in the same call.
import { injectable } from "tsyringe";
import { Result, Scopes, Tool } from "roundtrip-mcp";
import { PRIORITIES, TicketStore, type Priority } from "./ticket-store";

@injectable()
@Scopes("tickets:read")
export class TicketReport {
  constructor(private readonly store: TicketStore) {}

  @Tool({ description: "Counts the open tickets by priority", task: "optional", annotations: { readOnlyHint: true } })
  async ticket_report() {
    const byPriority = Object.fromEntries(PRIORITIES.map((p) => [p, 0])) as Record<Priority, number>;
    for (const ticket of this.store.list()) byPriority[ticket.priority]++;
    const total = this.store.list().length;
    return Result.structured({ total, byPriority }, `${total} open tickets, ${byPriority.urgent} urgent`);
  }
}
