import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { ViewHtml, ViewOptions } from "../../decorators/view";
import { deepFreeze } from "../../protocol/deep-freeze";
import { encodeOnce } from "../../protocol/encoded-json";
import { isPlainObject } from "../../protocol/plain-object";
import type { CacheScope, JsonObject } from "../../protocol/wire-types";
import type { ComponentCompiler, DeclaredComponent } from "../component-compiler";
import type { ComponentDefinition } from "../component-definition";
import { endedQuestionError } from "../ended-question";
import { OutputSchemaViolation } from "../output-schema-violation";
import { RegistrationError } from "../registration-error";
import { VIEW_MIME_TYPE } from "./ui-extension";
import { viewUiMeta } from "./view-meta";

/** A compiled view: a resource component of the `ui://` uri, and the class that declared it. */
export interface ViewDefinition extends ComponentDefinition {
  readonly uri: string;
  /** The class whose `@View` this is (a tool names its view by it). */
  readonly declaredBy: Function;
  /** What `McpApp.describe()` says of it: where its HTML comes from, and the `_meta.ui` hosts read (see `viewFacts`). */
  readonly facts: JsonObject;
}

/**
 * Compiles one `@View` declaration into a resource: its `ui://` uri, `text/html;profile=mcp-app`,
 * and `_meta.ui` on its list entry and on the content of every read. HTML given as `html` is read
 * (a file) here, once, and shaped into the read's result at the first read: each read answers
 * that frozen result.
 */
export function compileView(component: DeclaredComponent, options: ViewOptions, compiler: ComponentCompiler): ViewDefinition {
  const { where, cls } = component;
  const uri = checkViewUri(options.uri, where);
  const name = compiler.name(component, options.name, "view");
  const ttlMs = options.ttlMs ?? 0;
  if (!Number.isInteger(ttlMs) || ttlMs < 0) throw new RegistrationError(`${where}: ttlMs must be a non-negative integer`);
  const cacheScope: CacheScope = options.cacheScope ?? "private";
  if (cacheScope !== "public" && cacheScope !== "private")
    throw new RegistrationError(`${where}: cacheScope must be "public" or "private"`);
  if (isPlainObject(options._meta) && "ui" in options._meta)
    throw new RegistrationError(
      `${where}: _meta.ui is written from the view's csp, permissions, domain and prefersBorder options; set those instead`,
    );
  const ui = viewUiMeta(options, where);
  const uiMeta: JsonObject | undefined = Object.keys(ui).length > 0 ? { ui } : undefined;
  const listedMeta = options._meta === undefined && uiMeta === undefined ? undefined : { ...options._meta, ...uiMeta };
  const descriptor: JsonObject = {
    uri,
    name,
    ...(options.title !== undefined && { title: options.title }),
    ...(options.description !== undefined && { description: options.description }),
    mimeType: VIEW_MIME_TYPE,
    ...(options.icons !== undefined && { icons: options.icons }),
    ...(listedMeta !== undefined && { _meta: listedMeta }),
  };
  const ref = { kind: "resource" as const, name: uri };
  const rules = {
    bind: () => ({ ok: true as const, whole: undefined, named: {} }),
    declined: (key: string, action: "decline" | "cancel") => {
      throw endedQuestionError(key, action);
    },
    recover: () => undefined,
  };
  const methodName = component.declaration.methodName;
  const onClass = methodName === "handle";
  const hasHandle = typeof (cls.prototype as Record<string, unknown>).handle === "function";
  if (options.html !== undefined) {
    if (!onClass || hasHandle)
      throw new RegistrationError(
        `${where}: the view's HTML is given twice, as the html option and by the method; keep one (a method computes it on every read)`,
      );
    const { html, file } = loadHtml(options.html, where);
    // One result for every read, made at the first (encoding a large document is not start-up
    // work); its contents' JSON text is kept, so a transport that writes the result itself (the
    // fast lane) splices the text instead of encoding the document again.
    let result: JsonObject | undefined;
    const read = (): JsonObject =>
      (result ??= deepFreeze({
        resultType: "complete",
        contents: encodeOnce([{ uri, mimeType: VIEW_MIME_TYPE, text: html, ...(uiMeta !== undefined && { _meta: uiMeta }) }]),
        ttlMs,
        cacheScope,
      }));
    return {
      ...compiler.common(component, compiler.contentPlan(component, options.middleware), ref, descriptor),
      // No method of the class runs: this stands in for it, so the runner calls what it always calls.
      token: contentClass(cls.name, html),
      methodName: "handle",
      uri,
      declaredBy: cls,
      facts: viewFacts(ui, {
        from: file === undefined ? "text" : "file",
        ...(file !== undefined && { file }),
        bytes: Buffer.byteLength(html),
      }),
      ...rules,
      shape: read,
    };
  }
  const plan = compiler.plan(component, "resource", options.middleware);
  if (plan.params.some((p) => p.kind === "argument" || p.kind === "arguments"))
    throw new RegistrationError(`${where}: a view has a fixed uri, so no @Arg parameter binds anything; remove it`);
  return {
    ...compiler.common(component, plan, ref, descriptor),
    uri,
    declaredBy: cls,
    facts: viewFacts(ui, { from: "method", method: where }),
    ...rules,
    shape: (value) => viewResult(value, { where, uri, uiMeta, ttlMs, cacheScope }),
  };
}

/** A view's uri: `ui://` and a non-empty rest, with no spaces and no template expansion. */
function checkViewUri(uri: unknown, where: string): string {
  if (typeof uri !== "string" || !uri.startsWith("ui://") || uri.length === "ui://".length || /[\s{}]/.test(uri))
    throw new RegistrationError(
      `${where}: a view's uri must start with ui:// and name the view, e.g. "ui://my-server/dashboard", got ${JSON.stringify(uri)}`,
    );
  return uri;
}

/**
 * What the app's description says of a view: where its HTML comes from (`html`: the `text` given,
 * a `file` read once, or a `method` run on every read) and what its `_meta.ui` asks hosts for,
 * with `csp` and `permissions` written out when empty (the host's strictest policy, no permission).
 */
function viewFacts(ui: JsonObject, html: JsonObject): JsonObject {
  const { csp, permissions, ...rest } = ui;
  return { html, csp: csp ?? {}, permissions: Object.keys((permissions ?? {}) as JsonObject), ...rest };
}

/** The HTML of the `html` option: the string, or the file's text, read now (once, when the app is built), with the file's path. */
function loadHtml(html: ViewHtml, where: string): { html: string; file?: string } {
  let text: string;
  let file: string | undefined;
  if (typeof html === "string") text = html;
  else if (isPlainObject(html) && typeof html.file === "string" && html.file !== "") {
    const path = (file = resolve(html.file));
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new RegistrationError(
        `${where}: the view's HTML file ${path} cannot be read (${code}); build it first or correct the path ` +
          "(a relative path is from the working directory: join(__dirname, ...) names one beside your code)",
      );
    }
  } else throw new RegistrationError(`${where}: html must be the HTML text or { file: "path/to/view.html" }`);
  if (!/^\s*(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html)[\s>]/i.test(text.replace(/^\uFEFF/, "")))
    throw new RegistrationError(
      `${where}: the view's HTML must be an HTML5 document starting with <!doctype html> (or <html>); got ${JSON.stringify(text.slice(0, 40))}`,
    );
  return { html: text, ...(file !== undefined && { file }) };
}

/** What a view method returned as a complete read: its HTML as text (a string) or blob (bytes), with the view's `_meta.ui` under its own. */
function viewResult(
  value: unknown,
  view: { where: string; uri: string; uiMeta: JsonObject | undefined; ttlMs: number; cacheScope: CacheScope },
): JsonObject {
  let content: JsonObject;
  if (typeof value === "string") content = { text: value };
  else if (value instanceof Uint8Array) content = { blob: Buffer.from(value).toString("base64") };
  else if (isPlainObject(value) && (typeof value.text === "string" || typeof value.blob === "string")) content = { ...value };
  else
    throw new OutputSchemaViolation(
      `${view.where} returned no HTML: a view method returns the HTML text, its bytes, or { text } / { blob }`,
    );
  // The content's own `_meta.ui` wins over the view's, key by key, as hosts read them.
  const own = isPlainObject(content._meta) ? content._meta : undefined;
  const ui = { ...(view.uiMeta?.ui as JsonObject | undefined), ...(isPlainObject(own?.ui) ? own.ui : undefined) };
  const meta = { ...own, ...(Object.keys(ui).length > 0 && { ui }) };
  return {
    resultType: "complete",
    contents: [{ ...content, uri: view.uri, mimeType: VIEW_MIME_TYPE, ...(Object.keys(meta).length > 0 && { _meta: meta }) }],
    ttlMs: view.ttlMs,
    cacheScope: view.cacheScope,
  };
}

/** A class whose `handle()` returns the view's HTML, named after the view's class (for stack traces). */
function contentClass(name: string, html: string): Function {
  const content = class {
    handle(): string {
      return html;
    }
  };
  Object.defineProperty(content, "name", { value: name });
  return content;
}
