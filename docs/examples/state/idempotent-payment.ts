import "reflect-metadata";
import { IsIn, IsInt, Min } from "class-validator";
import { injectable } from "tsyringe";
import { Arg, Elicit, OperationId, Tool } from "roundtrip-mcp";

export class PayArgs {
  @IsInt() @Min(1) cents!: number;
}

export class Confirm {
  @IsIn(["yes", "no"]) answer!: string;
}

/**
 * The app's record of effects carried out, keyed by operation id. In production this is a table
 * with the operation id as its unique key (an insert that does nothing on conflict).
 */
@injectable()
export class Payments {
  private readonly receipts = new Map<string, string>();

  /** Charges once per operation: a replayed round gets the first receipt back. */
  chargeOnce(operationId: string, cents: number): string {
    const earlier = this.receipts.get(operationId);
    if (earlier !== undefined) return earlier;
    const receipt = `receipt ${this.receipts.size + 1}: ${cents} cents`;
    this.receipts.set(operationId, receipt);
    return receipt;
  }
}

@injectable()
export class Checkout {
  constructor(private readonly payments: Payments) {}

  @Tool({ description: "Charges the user after confirmation", annotations: { destructiveHint: true } })
  pay(
    @Arg() args: PayArgs,
    @Elicit("confirm", Confirm, { message: "Pay now?" }) confirm: Confirm,
    @OperationId() operationId: string,
  ) {
    if (confirm.answer !== "yes") return "Nothing charged.";
    // The effect happens in the round that completes, keyed on this flow's operation id.
    return this.payments.chargeOnce(operationId, args.cents);
  }
}
