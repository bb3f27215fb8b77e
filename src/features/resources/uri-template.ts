/**
 * RFC 6570 level-1 templates (simple `{var}` expansion): enough to address resources by parameters,
 * compiled once per template at bootstrap. Most template libraries only expand; the official SDK's
 * `UriTemplate` also matches, but it builds its regular expression again at every `match` call and
 * does not percent-decode the values. Ours keeps one regular expression per template and decodes
 * (a value that is not valid percent-encoding does not match), and only `src/server/` may import
 * the SDK.
 */
export class UriTemplate {
  readonly variables: readonly string[];
  private readonly pattern: RegExp;

  constructor(readonly template: string) {
    const variables: string[] = [];
    let source = "^";
    let last = 0;
    for (const match of template.matchAll(/\{([^}]*)\}/g)) {
      const expr = match[1]!; // group 1 is not optional: set whenever the pattern matched
      if (!/^[A-Za-z0-9_]+$/.test(expr)) {
        throw new Error(`uriTemplate "${template}": only simple {name} expansions are supported, found {${expr}}`);
      }
      if (variables.includes(expr)) throw new Error(`uriTemplate "${template}": variable {${expr}} appears twice`);
      variables.push(expr);
      source += escape(template.slice(last, match.index)) + "([^/?#]+)";
      last = match.index! + match[0].length;
    }
    if (/[{}]/.test(template.slice(last)) || (variables.length === 0 && /[{}]/.test(template))) {
      throw new Error(`uriTemplate "${template}": unbalanced braces`);
    }
    source += escape(template.slice(last)) + "$";
    this.variables = variables;
    this.pattern = new RegExp(source);
  }

  /** The variables of `uri` if it matches, else undefined. Values are percent-decoded. */
  match(uri: string): Record<string, string> | undefined {
    const m = this.pattern.exec(uri);
    if (!m) return undefined;
    const out: Record<string, string> = {};
    try {
      // The pattern holds one non-optional group per variable, in order.
      this.variables.forEach((name, i) => (out[name] = decodeURIComponent(m[i + 1]!)));
    } catch {
      return undefined;
    }
    return out;
  }

  /** Expands the template with percent-encoded values. */
  expand(values: Record<string, string>): string {
    return this.template.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ""));
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
