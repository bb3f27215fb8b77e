import { declareParam } from "./record-metadata";

/**
 * Injects the operation id of this flow: one random, unguessable string per interactive operation,
 * the same on every round of it (it travels in the sealed `requestState`) and different for two
 * operations with the same arguments. Key one-time effects on it (a payment, a sent message) so a
 * replayed round finds them done. A call that completes in one round gets a fresh one.
 *
 * @example book(@Arg() args: BookArgs, @Elicit("confirm", Confirm, { message: "Book it?" }) confirm: Confirm, @OperationId() operationId: string) { ... }
 */
export function OperationId(): ParameterDecorator {
  return (target, propertyKey, index) => declareParam(target, propertyKey, { index, kind: "operationId" });
}
