// Pins decoratorName, the label messages use for a class-validator constraint:
// - every constraint name class-validator exports (IS_UUID = "isUuid", ...) maps to one of its
//   exported decorator functions, spelled as exported (IsUUID, IsISO8601, IsIP, Length)
// - a name that is not class-validator's (a custom constraint) maps to nothing
import * as classValidator from "class-validator";
import { decoratorName } from "../../../src/schema/decorator-name";

const exported = classValidator as unknown as Record<string, unknown>;
const constraintNames = Object.entries(exported)
  .filter(([key, value]) => /^[A-Z0-9_]+$/.test(key) && typeof value === "string")
  .map(([, value]) => value as string);

describe("decoratorName", () => {
  it("maps every constraint name class-validator exports to an exported decorator", () => {
    expect(constraintNames.length).toBeGreaterThan(100);
    const unmapped = constraintNames.filter((name) => typeof exported[decoratorName(name) ?? ""] !== "function");
    expect(unmapped).toEqual([]);
  });

  it.each([
    ["isUuid", "IsUUID"],
    ["isIso8601", "IsISO8601"],
    ["isIp", "IsIP"],
    ["isLength", "Length"],
    ["isFqdn", "IsFQDN"],
    ["minLength", "MinLength"],
    ["isOptional", "IsOptional"],
  ])("spells %s as @%s", (constraint, decorator) => {
    expect(decoratorName(constraint)).toBe(decorator);
  });

  it("knows nothing of a custom constraint", () => {
    expect(decoratorName("customCheck")).toBeUndefined();
  });
});
