import "reflect-metadata";
import { container, injectable } from "tsyringe";
import { McpApp, Tool } from "roundtrip-mcp";

/** A plain service. @injectable() alone is transient: every class that injects it gets a new one. */
@injectable()
export class VisitCounter {
  private visits = 0;
  next(): number {
    return ++this.visits;
  }
}

@injectable()
export class Welcome {
  constructor(private readonly visits: VisitCounter) {}

  @Tool({ description: "Counts a visit" })
  welcome() {
    return `visit ${this.visits.next()}`;
  }
}

@injectable()
export class Farewell {
  constructor(private readonly visits: VisitCounter) {}

  @Tool({ description: "Counts a visit too" })
  farewell() {
    return `visit ${this.visits.next()}`;
  }
}

/** Welcome and Farewell share one VisitCounter: it is registered once in this app's container. */
export function createVisitsApp(): McpApp {
  const appContainer = container.createChildContainer();
  appContainer.registerSingleton(VisitCounter);
  return McpApp.create({ components: [Welcome, Farewell], container: appContainer, state: { ephemeral: true } });
}
