import "reflect-metadata";
import { IsIn, IsString } from "class-validator";
import { Arg, Elicit, McpApp, Result, Tool } from "roundtrip-mcp";

class OrderArgs {
  @IsString() item!: string;
}

class Size {
  @IsIn(["small", "large"]) size!: string;
}

class Shop {
  @Tool({ description: "Orders an item, asking the user which size" })
  order(@Arg() args: OrderArgs, @Elicit("size", Size, { message: "Which size?" }) size: Size) {
    return Result.structured({ ordered: args.item, size: size.size });
  }
}

const app = McpApp.create({ components: [Shop], state: { ephemeral: true } });
app.listen({ port: 3000 }).then((listener) => console.error(`serving ${listener.url}`));
