// Pins how a DTO's violations read (src/schema/dto-validator.ts): a missing field says "required"
// alone, not every rule a value would have to meet; a long message is cut after a whole word and
// says how many characters were left out, never cut mid-word without saying so.
import "reflect-metadata";
import { IsString, MaxLength, MinLength } from "class-validator";
import { clipWords, describeViolations, validateDto } from "../../../src/schema/dto-validator";

class Ticket {
  @IsString() @MinLength(10) @MaxLength(200) description!: string;
}

describe("DTO violation messages", () => {
  it("says a missing field is required, and nothing else about it", async () => {
    const outcome = await validateDto(Ticket, {});
    expect(outcome.ok).toBe(false);
    const text = describeViolations(outcome.ok ? [] : outcome.violations);
    expect(text).toBe("description: required (description is required)");
  });

  it("cuts a long message after a whole word and says how much was left out", () => {
    const text = "description must be shorter than or equal to 200 characters; description must be longer than or equal to 10 characters";
    const clipped = clipWords(text, 80);
    expect(clipped.length).toBeLessThanOrEqual(80);
    const kept = clipped.slice(0, clipped.indexOf("…"));
    expect(text.startsWith(kept)).toBe(true);
    expect(text[kept.length]).toBe(" ");
    expect(clipped).toMatch(new RegExp(`… \\(${text.length - kept.length} more characters\\)$`));
    expect(clipWords("short", 80)).toBe("short");
  });
});
