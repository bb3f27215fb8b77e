// Pins every mistake of an MCP Apps declaration that McpApp.create() refuses, each with a
// RegistrationError naming the place and the fix:
// - a view uri that is not ui:// (another scheme, nothing after ui://, spaces, a template);
// - a tool naming a view that does not exist (an undeclared uri, a class without @View, a @View
//   class not among the components, a class with two views, something neither class nor uri);
// - a CSP entry that is not an origin (a path, a query, a bare host, a keyword, another scheme,
//   credentials, not a string), an unknown csp field, an origin listed twice;
// - two views on one uri (and a view on a @Resource's uri);
// - HTML that cannot be read (a missing file, a folder), that is not an HTML document, given both
//   as the html option and by a method, or neither (a class without html and without handle());
// - an unknown or repeated permission, a domain with spaces, a prefersBorder that is no boolean;
// - a visibility that is empty, unknown or repeated; _meta.ui written by hand beside the options;
// - a view method with an @Arg parameter; a bad ttlMs;
// - @View, or a tool's view or visibility, without apps() listed.
import "reflect-metadata";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { Arg, McpApp, RegistrationError, Resource, Tool, View, apps, type ViewOptions } from "../../../../src/index";
import { SilentLogger } from "../../../../src/testing/index";

const HTML = "<!doctype html><title>v</title>";

function create(components: Function[], features = [apps()]): McpApp {
  return McpApp.create({ components, state: { secret: randomBytes(32) }, logger: new SilentLogger(), features });
}

/** A class with one static view of these options. */
function viewClass(options: Partial<ViewOptions>, name = "Dashboard"): Function {
  const cls = { [name]: class {} }[name]!;
  View({ uri: "ui://app/dashboard", html: HTML, ...options } as ViewOptions)(cls);
  return cls;
}

/** A class with one tool linked by these options. */
function toolClass(options: Parameters<typeof Tool>[0]): Function {
  class Tools {
    show() {
      return "shown";
    }
  }
  Tool(options)(Tools.prototype, "show", Object.getOwnPropertyDescriptor(Tools.prototype, "show")!);
  return Tools;
}

function refusal(build: () => unknown): string {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(RegistrationError);
    return (error as Error).message;
  }
  throw new Error("McpApp.create accepted it");
}

describe("McpApp.create refuses an MCP Apps mistake, naming the fix", () => {
  it.each([
    ["another scheme", "https://app/dashboard"],
    ["nothing after ui://", "ui://"],
    ["a space", "ui://app/my dashboard"],
    ["a template", "ui://app/{id}"],
  ])("a view uri with %s", (_case, uri) => {
    expect(
      refusal(() => create([viewClass({ uri })])).startsWith("Dashboard.handle: a view's uri must start with ui:// and name the view"),
    ).toBe(true);
  });

  it("a tool naming a uri no @View declares, listing the views there are", () => {
    expect(refusal(() => create([viewClass({}), toolClass({ view: "ui://app/other" })]))).toBe(
      "Tools.show: view \"ui://app/other\" is not declared by any @View of the app's components (the app's views: ui://app/dashboard)",
    );
    expect(refusal(() => create([toolClass({ view: "ui://app/other" })]))).toBe(
      'Tools.show: view "ui://app/other" is not declared by any @View of the app\'s components (the app declares no view)',
    );
  });

  it("a tool naming a class that declares no @View", () => {
    class NotAView {}
    expect(refusal(() => create([viewClass({}), toolClass({ view: NotAView })]))).toBe(
      "Tools.show: view names NotAView, which declares no @View (the app's views: ui://app/dashboard)",
    );
  });

  it("a tool naming a @View class that is not among the components", () => {
    const Dashboard = viewClass({});
    expect(refusal(() => create([toolClass({ view: Dashboard })]))).toBe(
      "Tools.show: view names Dashboard, which is not among the app's components; list it in components",
    );
  });

  it("a tool naming a class with two views", () => {
    class Views {
      @View({ uri: "ui://app/a" }) a() {
        return HTML;
      }
      @View({ uri: "ui://app/b" }) b() {
        return HTML;
      }
    }
    expect(refusal(() => create([Views, toolClass({ view: Views })]))).toBe(
      "Tools.show: view names Views, which declares 2 views; name one by its uri (ui://app/a, ui://app/b)",
    );
  });

  it("a tool whose view is neither a class nor a uri", () => {
    expect(refusal(() => create([viewClass({}), toolClass({ view: 42 as never })]))).toBe(
      "Tools.show: view must be a class declared with @View, or a view's ui:// uri (the app's views: ui://app/dashboard)",
    );
  });

  it.each([
    ["a path", "https://api.example.com/v1", "it has a path, query or fragment"],
    ["a query", "https://api.example.com?x=1", "it has a path, query or fragment"],
    ["a fragment", "https://api.example.com#x", "it has a path, query or fragment"],
    ["another scheme", "ftp://files.example.com", "its scheme ftp is not https, http, wss or ws"],
    ["credentials", "https://user:pw@api.example.com", "it carries credentials"],
  ])("a CSP entry with %s", (_case, entry, reason) => {
    expect(refusal(() => create([viewClass({ csp: { connectDomains: [entry] } })]))).toBe(
      `Dashboard.handle: csp.connectDomains: "${entry}" is not an origin (${reason}); an origin is a scheme (https, http, wss or ws), a host and an optional port, e.g. "https://api.example.com"`,
    );
  });

  it.each([
    ["a bare host", "api.example.com"],
    ["a CSP keyword", "'self'"],
    ["a wildcard alone", "*"],
  ])("a CSP entry that is %s", (_case, entry) => {
    expect(refusal(() => create([viewClass({ csp: { resourceDomains: [entry] } })]))).toBe(
      `Dashboard.handle: csp.resourceDomains: "${entry}" is not an origin; an origin is a scheme (https, http, wss or ws), a host and an optional port, e.g. "https://api.example.com"`,
    );
  });

  it("a CSP entry that is not a string, an unknown field, an origin twice, a field that is no array", () => {
    expect(refusal(() => create([viewClass({ csp: { frameDomains: [7 as never] } })]))).toContain("csp.frameDomains: 7 is not an origin;");
    expect(refusal(() => create([viewClass({ csp: { scriptDomains: [] } as never })]))).toBe(
      'Dashboard.handle: unknown csp field "scriptDomains"; a view\'s csp has connectDomains, resourceDomains, frameDomains, baseUriDomains',
    );
    expect(refusal(() => create([viewClass({ csp: { baseUriDomains: ["https://a.example", "https://a.example"] } })]))).toBe(
      "Dashboard.handle: csp.baseUriDomains lists an origin twice",
    );
    expect(refusal(() => create([viewClass({ csp: { connectDomains: "https://a.example" as never } })]))).toBe(
      "Dashboard.handle: csp.connectDomains must be an array of origins",
    );
  });

  it("accepts origins with ports, websockets and wildcard subdomains", async () => {
    const csp = {
      connectDomains: ["https://api.example.com", "wss://live.example.com:8443", "http://localhost:3000"],
      resourceDomains: ["https://*.cdn.example"],
    };
    const app = create([viewClass({ csp })]);
    await app.close();
  });

  it("two views on one uri, and a view on a @Resource's uri", () => {
    const first = viewClass({}, "First");
    const second = viewClass({}, "Second");
    expect(refusal(() => create([first, second]))).toBe(
      'Second.handle: two views on "ui://app/dashboard" (already declared by First.handle); give each its own uri',
    );
    class Plain {
      @Resource({ uri: "ui://app/dashboard" }) page() {
        return HTML;
      }
    }
    expect(refusal(() => create([Plain, viewClass({})]))).toBe(
      'Dashboard.handle: duplicate resource uri "ui://app/dashboard" (already declared by Plain.page)',
    );
  });

  it("HTML from a file that cannot be read: missing, or a folder", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "roundtrip-views-"));
    const missing = path.join(dir, "missing.html");
    expect(refusal(() => create([viewClass({ html: { file: missing } })]))).toBe(
      `Dashboard.handle: the view's HTML file ${missing} cannot be read (ENOENT); build it first or correct the path (a relative path is from the working directory: join(__dirname, ...) names one beside your code)`,
    );
    expect(refusal(() => create([viewClass({ html: { file: dir } })]))).toContain(`the view's HTML file ${dir} cannot be read (EISDIR)`);
    expect(refusal(() => create([viewClass({ html: { file: "" } })]))).toBe(
      'Dashboard.handle: html must be the HTML text or { file: "path/to/view.html" }',
    );
  });

  it("HTML that is not an HTML document", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "roundtrip-views-"));
    const script = path.join(dir, "view.js");
    writeFileSync(script, "console.log('not a page')");
    expect(refusal(() => create([viewClass({ html: { file: script } })]))).toBe(
      `Dashboard.handle: the view's HTML must be an HTML5 document starting with <!doctype html> (or <html>); got "console.log('not a page')"`,
    );
    expect(refusal(() => create([viewClass({ html: "" })]))).toContain("must be an HTML5 document");
  });

  it("HTML given twice (option and method), or not at all", () => {
    class Both {
      @View({ uri: "ui://app/both", html: HTML }) page() {
        return HTML;
      }
    }
    expect(refusal(() => create([Both]))).toBe(
      "Both.page: the view's HTML is given twice, as the html option and by the method; keep one (a method computes it on every read)",
    );
    @View({ uri: "ui://app/none" })
    class Neither {}
    expect(refusal(() => create([Neither]))).toBe("Neither.handle: method handle() not found (a class component needs a handle() method)");
  });

  it("an unknown or repeated permission, a bad domain, a prefersBorder that is no boolean", () => {
    expect(refusal(() => create([viewClass({ permissions: ["usb" as never] })]))).toBe(
      'Dashboard.handle: unknown permission "usb"; a view may ask for camera, microphone, geolocation, clipboardWrite',
    );
    expect(refusal(() => create([viewClass({ permissions: ["camera", "camera"] })]))).toBe(
      'Dashboard.handle: permission "camera" listed twice',
    );
    expect(refusal(() => create([viewClass({ domain: "my app.example" })]))).toBe(
      "Dashboard.handle: domain must be a non-empty host name in the format your host documents, without spaces",
    );
    expect(refusal(() => create([viewClass({ prefersBorder: "yes" as never })]))).toBe(
      "Dashboard.handle: prefersBorder must be true or false",
    );
  });

  it("a visibility that is empty, unknown or repeated", () => {
    const fix = (given: string) =>
      `Tools.show: visibility must list "model" (the agent calls it), "app" (its views call it through the host) or both, got ${given}`;
    expect(refusal(() => create([toolClass({ visibility: [] })]))).toBe(fix("[]"));
    expect(refusal(() => create([toolClass({ visibility: ["user" as never] })]))).toBe(fix('["user"]'));
    expect(refusal(() => create([toolClass({ visibility: ["app", "app"] })]))).toBe("Tools.show: visibility lists an audience twice");
  });

  it("_meta.ui written by hand beside the options", () => {
    expect(
      refusal(() => create([viewClass({}), toolClass({ view: "ui://app/dashboard", _meta: { ui: { resourceUri: "ui://x" } } })])),
    ).toBe('Tools.show: _meta.ui and _meta["ui/resourceUri"] are written from the view and visibility options; set those instead');
    expect(refusal(() => create([viewClass({ _meta: { ui: { prefersBorder: true } } })]))).toBe(
      "Dashboard.handle: _meta.ui is written from the view's csp, permissions, domain and prefersBorder options; set those instead",
    );
  });

  it("a view method with an @Arg parameter, and a bad ttlMs", () => {
    class Templated {
      @View({ uri: "ui://app/t" }) page(@Arg("id") id: string) {
        return HTML + id;
      }
    }
    expect(refusal(() => create([Templated]))).toBe(
      "Templated.page: a view has a fixed uri, so no @Arg parameter binds anything; remove it",
    );
    expect(refusal(() => create([viewClass({ ttlMs: -1 })]))).toBe("Dashboard.handle: ttlMs must be a non-negative integer");
  });

  it("@View, or a tool's view or visibility, without apps() listed", () => {
    const fix = 'list the apps feature in McpApp.create: features: [apps()] (import { apps } from "roundtrip-mcp")';
    expect(refusal(() => create([viewClass({})], []))).toBe(
      `Dashboard.handle: @View needs the io.modelcontextprotocol/ui feature, which the app does not list; ${fix}`,
    );
    expect(refusal(() => create([toolClass({ visibility: ["app"] })], []))).toBe(
      `Tools.show: needs the io.modelcontextprotocol/ui feature, which the app does not list; ${fix}`,
    );
  });
});
