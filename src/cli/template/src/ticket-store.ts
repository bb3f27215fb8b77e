// The app's own state: support tickets, kept in memory. A real app keeps them in a database; the
// components reach the store through the container, so a test or another store can replace it.
import { randomUUID } from "node:crypto";

export const PRIORITIES = ["low", "normal", "urgent"] as const;
export type Priority = (typeof PRIORITIES)[number];

export interface Ticket {
  id: string;
  title: string;
  priority: Priority;
  openedAt: string;
}

export class TicketStore {
  private readonly tickets = new Map<string, Ticket>();
  /** Which ticket each operation opened: a replayed last round finds its ticket, not a new one. */
  private readonly opened = new Map<string, string>();

  open(title: string, priority: Priority, operationId: string): Ticket {
    const known = this.opened.get(operationId);
    if (known !== undefined) return this.tickets.get(known)!;
    const ticket: Ticket = { id: randomUUID().slice(0, 8), title, priority, openedAt: new Date().toISOString() };
    this.tickets.set(ticket.id, ticket);
    this.opened.set(operationId, ticket.id);
    return ticket;
  }

  get(id: string): Ticket | undefined {
    return this.tickets.get(id);
  }

  list(): Ticket[] {
    return [...this.tickets.values()];
  }
}
