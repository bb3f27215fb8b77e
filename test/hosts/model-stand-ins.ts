/**
 * Scripted stand-ins for the model APIs the hosts call, on 127.0.0.1 (run-hosts.ts points each host
 * at one). Each answers the host's model requests from one rule: when the request offers the tool
 * (by its name's ending), call it once; once its result is in the conversation, finish with a text
 * quoting it; any other request (titles, routing, summaries) gets a short text.
 * - OpenAI Responses API (Codex's model provider `base_url`, `wire_api = "responses"`), streamed.
 * - Anthropic Messages API (Claude Code's ANTHROPIC_BASE_URL), streamed or not; when the tool is
 *   deferred behind Claude Code's ToolSearch, it searches for it first.
 * - Gemini API (Gemini CLI's GOOGLE_GEMINI_BASE_URL), `streamGenerateContent?alt=sse` and
 *   `generateContent`.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

type Json = Record<string, unknown>;
type Reply = { status?: number; type: string; body: string };

export interface StandIn {
  readonly url: string;
  /** Requests received: path and body. */
  readonly requests: { path: string; body: unknown }[];
  close(): Promise<void>;
}

async function serve(answer: (path: string, body: Json) => Reply): Promise<StandIn> {
  const requests: { path: string; body: unknown }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: Json = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Json;
      } catch {
        body = {};
      }
      const path = req.url ?? "/";
      requests.push({ path, body });
      const reply = answer(path, body);
      res.writeHead(reply.status ?? 200, { "content-type": reply.type });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const sse = (events: Json[], named: boolean): Reply => ({
  type: "text/event-stream",
  body: events.map((e) => `${named ? `event: ${String(e.type)}\n` : ""}data: ${JSON.stringify(e)}\n\n`).join(""),
});
const json = (value: unknown, status = 200): Reply => ({ status, type: "application/json", body: JSON.stringify(value) });

/** Codex: the Responses API. `args` are the tool call's arguments. */
export function openAiStandIn(tool: string, args: Json = {}): Promise<StandIn> {
  let seq = 0;
  return serve((path, body) => {
    if (!path.endsWith("/responses")) return path.includes("/models") ? json({ data: [], models: [] }) : json({}, 404);
    const input = Array.isArray(body.input) ? (body.input as Json[]) : [];
    const outputs = input.filter((i) => i.type === "function_call_output");
    const tools = ((body.tools ?? []) as Json[]).flatMap((t) =>
      t.type === "namespace" ? ((t.tools ?? []) as Json[]).map((x) => ({ ...x, namespace: t.name })) : [t],
    );
    const offered = tools.find((t) => typeof t.name === "string" && t.name.endsWith(tool));
    const id = `resp_${++seq}`;
    const item =
      outputs.length === 0 && offered
        ? {
            type: "function_call",
            id: `fc_${seq}`,
            call_id: `call_${seq}`,
            name: offered.name,
            ...(offered.namespace !== undefined && { namespace: offered.namespace }),
            arguments: JSON.stringify(args),
          }
        : {
            type: "message",
            id: `msg_${seq}`,
            role: "assistant",
            content: [{ type: "output_text", text: `done: ${outputs.map((o) => String(o.output)).join(" | ")}` }],
          };
    const usage = { input_tokens: 1, input_tokens_details: null, output_tokens: 1, output_tokens_details: null, total_tokens: 2 };
    return sse(
      [
        { type: "response.created", response: { id } },
        { type: "response.output_item.done", item },
        { type: "response.completed", response: { id, usage } },
      ],
      true,
    );
  });
}

/** Claude Code: the Messages API. */
export function anthropicStandIn(tool: string): Promise<StandIn> {
  let seq = 0;
  return serve((path, body) => {
    if (path.startsWith("/v1/messages/count_tokens")) return json({ input_tokens: 10 });
    if (!path.startsWith("/v1/messages")) return json({ type: "error", error: { type: "not_found_error", message: "stand-in" } }, 404);
    const names = ((body.tools ?? []) as Json[]).map((t) => String(t.name ?? ""));
    const blocks = ((body.messages ?? []) as Json[]).flatMap((m) => (Array.isArray(m.content) ? (m.content as Json[]) : []));
    const uses = blocks.filter((b) => b.type === "tool_use");
    const used = uses.find((u) => String(u.name).endsWith(`__${tool}`));
    const target = names.find((n) => n.endsWith(`__${tool}`));
    let content: Json[];
    if (used) {
      const result = blocks.find((b) => b.type === "tool_result" && b.tool_use_id === used.id);
      content = [{ type: "text", text: `done: ${JSON.stringify(result?.content ?? null)}` }];
    } else if (target) content = [{ type: "tool_use", id: `toolu_${++seq}`, name: target, input: {} }];
    else if (names.includes("ToolSearch") && !uses.some((u) => u.name === "ToolSearch"))
      content = [
        {
          type: "tool_use",
          id: `toolu_${++seq}`,
          name: "ToolSearch",
          input: { query: `select:mcp__preferences__${tool}`, max_results: 5 },
        },
      ];
    else content = [{ type: "text", text: "ok" }];
    const stop = content[0]!.type === "tool_use" ? "tool_use" : "end_turn";
    const id = `msg_${++seq}`;
    const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    if (!body.stream)
      return json({ id, type: "message", role: "assistant", model: body.model, content, stop_reason: stop, stop_sequence: null, usage });
    const events: Json[] = [
      {
        type: "message_start",
        message: { id, type: "message", role: "assistant", model: body.model, content: [], stop_reason: null, usage },
      },
    ];
    content.forEach((c, index) => {
      if (c.type === "text") {
        events.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
        events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: c.text } });
      } else {
        events.push({ type: "content_block_start", index, content_block: { type: "tool_use", id: c.id, name: c.name, input: {} } });
        events.push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(c.input) } });
      }
      events.push({ type: "content_block_stop", index });
    });
    events.push({ type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
    events.push({ type: "message_stop" });
    return sse(events, true);
  });
}

/** Gemini CLI: the Gemini API. */
export function geminiStandIn(tool: string): Promise<StandIn> {
  return serve((path, body) => {
    if (path.includes(":countTokens")) return json({ totalTokens: 10 });
    if (!path.includes(":generateContent") && !path.includes(":streamGenerateContent"))
      return json({ error: { code: 404, message: "stand-in", status: "NOT_FOUND" } }, 404);
    const declared = ((body.tools ?? []) as Json[]).flatMap((t) => (t.functionDeclarations ?? []) as Json[]).map((d) => String(d.name));
    const parts = ((body.contents ?? []) as Json[]).flatMap((c) => (c.parts ?? []) as Json[]);
    const target = declared.find((n) => n.endsWith(tool));
    const call = parts.find((p) => (p.functionCall as Json | undefined)?.name === target);
    let part: Json;
    if (call) part = { text: `done: ${JSON.stringify(parts.find((p) => p.functionResponse)?.functionResponse ?? null)}` };
    else if (target) part = { functionCall: { name: target, args: {} } };
    else if ((body.generationConfig as Json | undefined)?.responseMimeType === "application/json")
      // Gemini CLI's routing and next-speaker checks ask for JSON.
      part = {
        text: JSON.stringify({
          reasoning: "stand-in",
          next_speaker: "user",
          model_choice: "flash",
          complexity_reasoning: "stand-in",
          complexity_score: 1,
        }),
      };
    else part = { text: "ok" };
    const chunk = {
      candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    };
    return path.includes(":streamGenerateContent") ? sse([chunk], false) : json(chunk);
  });
}
