// Benchmark server: a roundtrip-mcp app with BENCH_COMPONENTS components (default 3), served over
// loopback HTTP in its own process. The three the benchmark calls come first:
// - `add`: a plain tool call (two integer arguments, a structured result);
// - `confirm_add`: the same, after asking the user to confirm with @Elicit (an elicitation round
//   trip: the first call answers input_required with a question and sealed state, the retry with
//   the answer completes);
// - `checkpoint_add`: the same, after a state-only round (the method seals a checkpoint with
//   StateSealer and returns Result.inputRequired({ requestState }); the retry opens it and completes).
// The rest are generated classes, each a class component with its own DTO and tool name, declared
// by calling the decorators as functions. With BENCH_RATE_LIMIT_CALLERS=<n>, every component is
// rate-limited (a default far above any rate reached: every call is counted, none refused) and the
// listener's authenticator gives each request the next of n principals in turn, so the limiter's
// store holds a bucket per principal and component as it would for n callers. BENCH_SKILLS (default 0)
// adds the skills feature with that many code-registered skills of three files each. Prints the
// listener's URL on one line when ready, then
// answers memory probes on stdin (memory-probe.ts); exits (closing the app first, so
// `node --cpu-prof` can write its profile) on SIGTERM, SIGINT or when stdin ends (the parent went away).
import "reflect-metadata";
import { IsIn, IsInt } from "class-validator";
import { inject, injectable } from "tsyringe";
import { Arg, Ctx, Elicit, McpApp, Result, skills, StateSealer, Tool, type RequestContext, type SkillDefinition } from "../../../src/index";
import { exitWhenAsked } from "./exit-when-asked";
import { answerMemoryProbes } from "./memory-probe";

class AddArgs {
  @IsInt() a!: number;
  @IsInt() b!: number;
}

class Confirmation {
  @IsIn(["yes", "no"]) answer!: string;
}

class Calc {
  @Tool({ name: "add", description: "Adds two integers" })
  add(@Arg() args: AddArgs) {
    return Result.structured({ sum: args.a + args.b });
  }
}

class ConfirmedCalc {
  @Tool({ name: "confirm_add", description: "Adds two integers once the user confirms" })
  add(@Arg() args: AddArgs, @Elicit("confirm", Confirmation, { message: "Add them?" }) confirmation: Confirmation) {
    return Result.structured({ sum: args.a + args.b, confirmed: confirmation.answer });
  }
}

@injectable()
class CheckpointCalc {
  constructor(@inject(StateSealer) private readonly sealer: StateSealer) {}

  @Tool({ name: "checkpoint_add", description: "Adds two integers in two rounds, carrying a checkpoint" })
  add(@Arg() args: AddArgs, @Ctx() ctx: RequestContext) {
    if (ctx.requestState === undefined) {
      return Result.inputRequired({ requestState: this.sealer.seal({ phase: "checked", a: args.a }, ctx, { principal: ctx.principal }) });
    }
    const checkpoint = this.sealer.open(ctx.requestState, ctx, { principal: ctx.principal }) as { phase: string; a: number };
    return Result.structured({ sum: checkpoint.a + args.b, phase: checkpoint.phase });
  }
}

/** Gives a generated class its own name, as a class declared in source has. */
function named<T extends Function>(cls: T, name: string): T {
  // defineProperty, not `{ [name]: class {} }[name]`: an object literal keyed by each generated
  // name would add one transition per name to V8's shared root map of `{}` objects, garbage that a
  // real app (whose classes are named in source) never makes.
  return Object.defineProperty(cls, "name", { value: name });
}

/** A class component `tool_<i>` whose arguments are a DTO of its own, `{ n<i>: integer }`. */
function generatedComponent(i: number): Function {
  const Dto = named(class {}, `GeneratedArgs${i}`);
  IsInt()(Dto.prototype, `n${i}`);
  const Component = named(
    class {
      handle() {
        return Result.structured({ index: i });
      }
    },
    `GeneratedTool${i}`,
  );
  Tool({ name: `tool_${i}`, description: `Generated tool number ${i}`, arguments: Dto })(Component);
  return Component;
}

/** A skill registered from code, `skill-<i>`: a SKILL.md and two reference files (BENCH_SKILLS). */
function generatedSkill(i: number): SkillDefinition {
  const name = `skill-${i}`;
  const manifest = `---\nname: ${name}\ndescription: Generated skill number ${i}, for the skills/list benchmark; it teaches nothing.\nlicense: MIT\n---\n\n# ${name}\n\nSee references/GUIDE.md.\n`;
  return {
    path: `bench/${name}`,
    files: { "SKILL.md": manifest, "references/GUIDE.md": `Guide ${i}\n`, "references/EXAMPLES.md": `Examples ${i}\n` },
  };
}

async function main(): Promise<void> {
  const count = Number(process.env.BENCH_COMPONENTS ?? "3");
  if (!Number.isInteger(count) || count < 3)
    throw new Error(`BENCH_COMPONENTS must be an integer >= 3, got ${process.env.BENCH_COMPONENTS}`);
  const started = process.hrtime.bigint();
  const components: Function[] = [Calc, ConfirmedCalc, CheckpointCalc];
  for (let i = components.length; i < count; i++) components.push(generatedComponent(i));
  const callers = Number(process.env.BENCH_RATE_LIMIT_CALLERS ?? "0");
  if (!Number.isInteger(callers) || callers < 0)
    throw new Error(`BENCH_RATE_LIMIT_CALLERS must be an integer >= 0, got ${process.env.BENCH_RATE_LIMIT_CALLERS}`);
  const rateLimits = callers > 0 ? { rateLimits: { default: { limit: 1_000_000_000, windowMs: 60_000 } } } : {};
  const skillCount = Number(process.env.BENCH_SKILLS ?? "0");
  const features = skillCount > 0 ? [skills({ skills: Array.from({ length: skillCount }, (_, i) => generatedSkill(i)) })] : [];
  const app = McpApp.create({ components, state: { secret: "bench-secret-".padEnd(48, "x") }, features, ...rateLimits });
  let turn = 0;
  const principals = Array.from({ length: callers }, (_, i) => `caller-${i}`);
  const listener = await app.listen({ port: 0, ...(callers > 0 && { authenticate: () => principals[turn++ % callers]! }) });
  const bootMs = Number(process.hrtime.bigint() - started) / 1e6;
  process.stderr.write(`[app-server] ${components.length} tools registered, bootstrap ${bootMs.toFixed(0)} ms\n`);
  process.stdout.write(`${listener.url}\n`);
  answerMemoryProbes();
  exitWhenAsked(() => app.close());
}

main().catch((error: unknown) => {
  process.stderr.write(`[app-server] failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
