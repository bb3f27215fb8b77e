import type { ComponentDefinition } from "../component-definition";
import type { Selection } from "../feature-module";
import { RegistrationError } from "../registration-error";
import { UriTemplate } from "./uri-template";

interface TemplateRoute {
  readonly component: ComponentDefinition;
  readonly template: UriTemplate;
}

/**
 * Where `resources/read` finds a uri: the resources with a fixed uri by that uri, then the
 * templates in their sorted order. Any feature's resource components are routed alike, by what
 * their descriptor lists (`uri` or `uriTemplate`); a uri or template declared twice is a
 * registration error naming both places.
 */
export class ResourceRoutes {
  private readonly fixed = new Map<string, ComponentDefinition>();
  private templates: TemplateRoute[] = [];
  private readonly members = new Set<ComponentDefinition>();

  get size(): number {
    return this.members.size;
  }

  has(component: ComponentDefinition): boolean {
    return this.members.has(component);
  }

  /** The routed components, in the order they were added. */
  components(): ComponentDefinition[] {
    return [...this.members];
  }

  /** Routes one resource component; `template` is its compiled template when it has one already. */
  add(component: ComponentDefinition & { readonly template?: UriTemplate }): void {
    const { uri, uriTemplate } = component.descriptor;
    if (typeof uri === "string") {
      const earlier = this.fixed.get(uri);
      if (earlier)
        throw new RegistrationError(`${component.where}: duplicate resource uri "${uri}" (already declared by ${earlier.where})`);
      this.fixed.set(uri, component);
    } else if (typeof uriTemplate === "string") {
      if (this.templates.some((t) => t.template.template === uriTemplate))
        throw new RegistrationError(`${component.where}: duplicate resource template "${uriTemplate}"`);
      this.templates.push({ component, template: component.template ?? templateOf(uriTemplate, component.where) });
    } else {
      throw new RegistrationError(`${component.where}: a resource component must list a uri or a uriTemplate`);
    }
    this.members.add(component);
  }

  /** Puts the templates in the order they are matched and listed. */
  sort(): void {
    this.templates = [...this.templates].sort((a, b) => a.template.template.localeCompare(b.template.template, "en"));
  }

  /** The resources with a fixed uri, in listing order. */
  fixedInOrder(): ComponentDefinition[] {
    return [...this.fixed.values()].sort((a, b) => String(a.descriptor.uri).localeCompare(String(b.descriptor.uri), "en"));
  }

  /** The templates, in listing (and matching) order. */
  templatesInOrder(): ComponentDefinition[] {
    return this.templates.map((t) => t.component);
  }

  /** The resource a uri names (its exact resource first, then the first template that matches), or undefined. */
  find(uri: string): Selection | undefined {
    const exact = this.fixed.get(uri);
    if (exact) return { component: exact };
    for (const { component, template } of this.templates) {
      const matched = template.match(uri);
      if (matched) return { component, matched };
    }
    return undefined;
  }
}

function templateOf(text: string, where: string): UriTemplate {
  try {
    return new UriTemplate(text);
  } catch (error) {
    throw new RegistrationError(`${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
