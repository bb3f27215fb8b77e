// Connects the official MCP client to an app over each real boundary: in-process (the SDK's
// in-memory transport through the same stdio entry), a child process on stdio, and an HTTP
// listener on 127.0.0.1 port 0. Every message the server sends is recorded and validated
// against the official 2026-07-28 wire schema.
import { Client, StreamableHTTPClientTransport, type ClientCapabilities, type Transport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { McpApp, HttpListener } from "../../src/index";
import { WireTap } from "./wire-tap";
import { RawSession } from "./raw-session";
import { fixtureCommand } from "./fixture-server";

export type BoundaryName = "in-process" | "stdio" | "http";
export const BOUNDARIES: BoundaryName[] = ["in-process", "stdio", "http"];

export interface ClientOptions {
  capabilities?: ClientCapabilities;
  /** Manual MRTR: input_required surfaces to the caller (default true). */
  manual?: boolean;
  /**
   * Speak 2026-07-28 (default), let the client do a 2025-11-25 handshake ("2025"), or ask for
   * 2025-06-18 in that handshake ("2025-06-18", as hosts on that revision do).
   */
  era?: "2026" | "2025" | "2025-06-18";
}

export interface Connected {
  client: Client;
  tap: WireTap;
}

/** One boundary of one app; `connect()` may be called several times (fresh clients). */
export class Boundary {
  private listener?: HttpListener;
  private readonly clients: Client[] = [];
  private readonly raws: RawSession[] = [];

  constructor(
    readonly name: BoundaryName,
    private readonly app: McpApp,
    /** Fixture name for the stdio child (see test/support/fixture-server.ts). */
    private readonly fixture: string,
    /** More environment for the stdio child (FIXTURE_LIMITS, ...). */
    private readonly fixtureEnv: Record<string, string> = {},
  ) {}

  get url(): string {
    if (!this.listener) throw new Error("not listening");
    return this.listener.url;
  }

  async start(): Promise<void> {
    if (this.name === "http") this.listener = await this.app.listen({ port: 0 });
  }

  async connect(options: ClientOptions = {}): Promise<Connected> {
    const era = options.era ?? "2026";
    const client = new Client(
      { name: "e2e", version: "1.0.0" },
      {
        capabilities: options.capabilities ?? {},
        ...(era === "2026" && { versionNegotiation: { mode: { pin: "2026-07-28" } } }),
        inputRequired: { autoFulfill: !(options.manual ?? true) },
      },
    );
    const tap = new WireTap(await this.transport(), era === "2025-06-18" ? "2025-06-18" : undefined);
    await client.connect(tap);
    this.clients.push(client);
    return { client, tap };
  }

  /** A raw session over this boundary: exact JSON-RPC in and out, no client in between. */
  async raw(): Promise<RawSession> {
    const session = await RawSession.open(await this.transport());
    this.raws.push(session);
    return session;
  }

  private async transport(): Promise<Transport> {
    switch (this.name) {
      case "in-process":
        return this.app.connect();
      case "http":
        return new StreamableHTTPClientTransport(new URL(this.url));
      case "stdio": {
        const { command, args, env } = fixtureCommand(this.fixture);
        return new StdioClientTransport({
          command,
          args,
          env: { ...(process.env as Record<string, string>), ...env, ...this.fixtureEnv },
          stderr: "pipe",
        });
      }
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.clients.splice(0).map((c) => c.close().catch(() => undefined)));
    await Promise.all(this.raws.splice(0).map((r) => r.close().catch(() => undefined)));
    await this.listener?.close();
    this.listener = undefined;
  }
}

/** What `serveRaw` holds for the tests of a describe block. */
export interface ServedRaw {
  app: McpApp;
  boundary: Boundary;
  raw: RawSession;
}

/**
 * For the describe block it is called in: before all its tests, the app `create` makes served
 * over `name` with a raw session (the stdio child runs `fixture`); after all, both closed, and
 * after each, no schema violation received.
 */
export function serveRaw(name: BoundaryName, create: () => McpApp, fixture: string, fixtureEnv?: Record<string, string>): ServedRaw {
  const served = {} as ServedRaw;
  beforeAll(async () => {
    served.app = create();
    served.boundary = new Boundary(name, served.app, fixture, fixtureEnv);
    await served.boundary.start();
    served.raw = await served.boundary.raw();
  });
  afterAll(async () => {
    await served.boundary.stop();
    await served.app.close();
  });
  afterEach(() => expect(served.raw.violations).toEqual([]));
  return served;
}
