/**
 * RFC 6570 level-1 templates (simple `{var}` expansion): enough to address resources by parameters.
 * Hand-written because matching is the inverse of expansion, which template libraries do not offer;
 * compiled once per template at bootstrap.
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
