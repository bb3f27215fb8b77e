import "reflect-metadata";
import { IsString } from "class-validator";
import { injectable } from "tsyringe";
import { Arg, Ctx, Elicitation, Result, Tool, type RequestContext } from "roundtrip-mcp";

/** A service the container injects: what is in stock changes while the user thinks. */
@injectable()
export class Stock {
  private readonly sizes = new Map([["shirt", ["S", "M", "L"]]]);
  sizesOf(product: string): string[] {
    return this.sizes.get(product) ?? [];
  }
}

export class OrderArgs {
  @IsString() product!: string;
}

@injectable()
export class Orders {
  constructor(private readonly stock: Stock) {}

  @Tool({ description: "Orders a product, offering only the sizes in stock" })
  order(@Arg() args: OrderArgs, @Ctx() ctx: RequestContext) {
    const sizes = this.stock.sizesOf(args.product);
    if (sizes.length === 0) return Result.error(`${args.product} is out of stock.`);
    // Built every round from the service; the answer is checked against this round's choices.
    const askSize = Elicitation.form(`Which size of ${args.product}?`, {
      type: "object",
      properties: { size: { type: "string", enum: sizes } },
      required: ["size"],
    });
    const answer = Elicitation.response(ctx, "size", askSize);
    if (answer.status === "missing") return Result.inputRequired({ inputRequests: { size: askSize } });
    if (answer.action !== "accept") return Result.error("No size chosen; nothing ordered.");
    return `Ordered ${args.product} in size ${String(answer.content.size)}.`;
  }
}
