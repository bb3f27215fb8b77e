// Benchmark server: a roundtrip-mcp app with BENCH_COMPONENTS components (default 3), served over
// loopback HTTP in its own process. One hand-written tool, "add", is the one the benchmark calls;
// the rest are generated classes, each a class component with its own DTO and tool name, declared
// by calling the decorators as functions. Prints the listener's URL on one line when ready, and
// exits (closing the app first, so `node --cpu-prof` can write its profile) on SIGTERM, SIGINT or
// when stdin ends (the parent went away).
import "reflect-metadata";
import { IsInt } from "class-validator";
import { McpApp, Tool, Arg, Result } from "../../../src/index";
import { exitWhenAsked } from "./exit-when-asked";

const CALLED_TOOL = "add";

class AddArgs {
  @IsInt() a!: number;
  @IsInt() b!: number;
}

class Calc {
  @Tool({ name: CALLED_TOOL, description: "Adds two integers" })
  add(@Arg() args: AddArgs) {
    return Result.structured({ sum: args.a + args.b });
  }
}

/** A class component `tool_<i>` whose arguments are a DTO of its own, `{ n<i>: integer }`. */
function generatedComponent(i: number): Function {
  const dtoName = `GeneratedArgs${i}`;
  const Dto = { [dtoName]: class {} }[dtoName];
  IsInt()(Dto.prototype, `n${i}`);
  const className = `GeneratedTool${i}`;
  const Component = {
    [className]: class {
      handle() {
        return Result.structured({ index: i });
      }
    },
  }[className];
  Tool({ name: `tool_${i}`, description: `Generated tool number ${i}`, arguments: Dto })(Component);
  return Component;
}

async function main(): Promise<void> {
  const count = Number(process.env.BENCH_COMPONENTS ?? "3");
  if (!Number.isInteger(count) || count < 1) throw new Error(`BENCH_COMPONENTS must be a positive integer, got ${process.env.BENCH_COMPONENTS}`);
  const started = process.hrtime.bigint();
  const components: Function[] = [Calc];
  for (let i = 1; i < count; i++) components.push(generatedComponent(i));
  const app = McpApp.create({ components, state: { secret: "bench-secret-".padEnd(48, "x") } });
  const listener = await app.listen({ port: 0 });
  const bootMs = Number(process.hrtime.bigint() - started) / 1e6;
  process.stderr.write(`[app-server] ${components.length} tools registered, bootstrap ${bootMs.toFixed(0)} ms\n`);
  process.stdout.write(`${listener.url}\n`);
  exitWhenAsked(() => app.close());
}

main().catch((error: unknown) => {
  process.stderr.write(`[app-server] failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
