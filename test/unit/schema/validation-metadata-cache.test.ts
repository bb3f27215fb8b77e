// Pins the memoized class-validator rule lookup: results are the same as without it, inherited
// rules still apply, rules registered after a lookup (a class defined later, a subclass adding a
// rule) are seen, and grouped validation keeps its own entries.
import "reflect-metadata";
import { IsInt, IsString, MinLength, validate } from "class-validator";
import { validateDto } from "../../../src/schema/dto-validator";

describe("validation metadata cache", () => {
  it("applies own and inherited rules, before and after the cache is warm", async () => {
    class Base {
      @IsString() name!: string;
    }
    class Child extends Base {
      @IsInt() age!: number;
    }
    for (let i = 0; i < 3; i++) {
      const bad = await validateDto(Child, { name: 5, age: "x" });
      expect(bad.ok ? [] : bad.violations.map((v) => v.field).sort()).toEqual(["age", "name"]);
      expect((await validateDto(Child, { name: "n", age: 3 })).ok).toBe(true);
    }
  });

  it("sees rules registered after a lookup", async () => {
    class Later {
      @IsString() a!: string;
    }
    expect((await validateDto(Later, { a: "x" })).ok).toBe(true);
    // A decorator applied after the first validation (as a lazily loaded module would) takes effect.
    MinLength(5)(Later.prototype, "a");
    const r = await validateDto(Later, { a: "x" });
    expect(r.ok ? [] : r.violations.map((v) => v.constraint)).toEqual(["minLength"]);
  });

  it("keeps grouped validation separate from ungrouped", async () => {
    class Grouped {
      @IsString({ groups: ["strict"] }) code!: unknown;
    }
    const value = Object.assign(new Grouped(), { code: 1 });
    const loose = { forbidUnknownValues: false };
    expect(await validate(value, { ...loose, strictGroups: true })).toHaveLength(0);
    expect(await validate(value, { ...loose, groups: ["strict"] })).toHaveLength(1);
    expect(await validate(value, { ...loose, groups: ["other"] })).toHaveLength(0);
    expect(await validate(value, { ...loose, strictGroups: true })).toHaveLength(0);
  });
});
