// A class with `n` tools (and optionally as many resources, templates and prompts), declared
// through the decorators at run time: what the list paging tests and the list benchmark serve.
import "reflect-metadata";
import { Arg, Prompt, Resource, Tool } from "../../src/index";

/** Wire names in list order: t0000, t0001, ... */
export const nameOf = (prefix: string, i: number): string => `${prefix}${String(i).padStart(4, "0")}`;

export function manyComponents(n: number, kinds: { resources?: boolean; prompts?: boolean } = {}): Function {
  class Many {}
  const proto = Many.prototype as unknown as Record<string, unknown>;
  const declare = (method: string, decorator: MethodDecorator, arg?: string) => {
    proto[method] = () => "ok";
    if (arg !== undefined) {
      Reflect.defineMetadata("design:paramtypes", [String], proto, method);
      Arg(arg)(proto, method, 0);
    }
    decorator(proto, method, Object.getOwnPropertyDescriptor(proto, method)!);
  };
  for (let i = 0; i < n; i++) {
    declare(`tool${i}`, Tool({ name: nameOf("t", i), description: `Tool number ${i}` }));
    if (kinds.resources) {
      declare(`resource${i}`, Resource({ uri: `notes://${nameOf("r", i)}` }));
      declare(`template${i}`, Resource({ uriTemplate: `notes://${nameOf("u", i)}/{id}` }), "id");
    }
    if (kinds.prompts) declare(`prompt${i}`, Prompt({ name: nameOf("p", i) }));
  }
  return Many;
}
