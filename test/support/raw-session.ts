// Exact JSON-RPC over any client transport (in-memory, stdio child, HTTP), without the official
// client's interpretation: send one request, get the server's exact response message back.
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { validateServerMessage } from "./wire-schema";

export const PROTOCOL_VERSION = "2026-07-28";

export function envelope(capabilities: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    ...extra,
  };
}

export type WireResponse = {
  jsonrpc: "2.0";
  id: string | number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
};

export class RawSession {
  private nextId = 1;
  private readonly waiting = new Map<string | number, (m: WireResponse) => void>();
  /** Notifications received, in order. */
  readonly notifications: JSONRPCMessage[] = [];
  /** Schema violations of anything received. */
  readonly violations: string[] = [];
  private readonly methods = new Map<string | number, string>();

  private constructor(private readonly transport: Transport) {
    transport.onmessage = (message) => {
      const m = message as WireResponse & { method?: string };
      try {
        validateServerMessage(message, m.method === undefined ? this.methods.get(m.id) : undefined);
      } catch (error) {
        this.violations.push((error as Error).message);
      }
      if (m.method !== undefined) {
        this.notifications.push(message);
        return;
      }
      this.waiting.get(m.id)?.(m);
      this.waiting.delete(m.id);
    };
  }

  static async open(transport: Transport): Promise<RawSession> {
    const session = new RawSession(transport);
    transport.setProtocolVersion?.(PROTOCOL_VERSION);
    await transport.start();
    return session;
  }

  /** Sends `method` with `params` (an envelope `_meta` is added unless params carry one). */
  async request(method: string, params: Record<string, unknown>, capabilities: Record<string, unknown> = {}): Promise<WireResponse> {
    const id = this.nextId++;
    this.methods.set(id, method);
    const body = { ...params, _meta: params._meta ?? envelope(capabilities) };
    const response = new Promise<WireResponse>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no response to ${method} #${id} within 10 s`)), 10_000);
      this.waiting.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
    await this.transport.send({ jsonrpc: "2.0", id, method, params: body } as JSONRPCMessage);
    return response;
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
