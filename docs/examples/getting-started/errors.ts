import "reflect-metadata";
import { IsString } from "class-validator";
import { Arg, ErrorCode, McpError, Resource, Result, Tool, ToolError } from "roundtrip-mcp";

const NOTES = new Map([["1", "Buy milk"]]);
const ARCHIVED = new Set(["0"]);

export class NoteRef {
  @IsString() id!: string;
}

export class Notes {
  /** Returning undefined (or null, or no contents) is "not found": -32602 with data.uri. */
  @Resource({ uriTemplate: "notes://{id}", mimeType: "text/plain" })
  note(@Arg("id") id: string): string | undefined {
    if (ARCHIVED.has(id)) throw new McpError(ErrorCode.InvalidParams, `Note ${id} is archived`, { uri: `notes://${id}`, archived: true });
    return NOTES.get(id);
  }

  /** From a tool, a failure the model should read and correct is an isError result. */
  @Tool({ description: "Counts the words of a note" })
  count_words(@Arg() args: NoteRef) {
    const note = NOTES.get(args.id);
    if (note === undefined) return Result.error(`No note ${args.id}: list the notes:// resources first.`);
    return `${note.split(/\s+/).length} words`;
  }

  /** Deep in a call, a ToolError says the same: its message is for the model. Other errors are not shown. */
  @Tool({ description: "Reads the first word of a note" })
  first_word(@Arg() args: NoteRef) {
    return firstWord(args.id);
  }
}

function firstWord(id: string): string {
  const note = NOTES.get(id);
  if (note === undefined) throw new ToolError(`No note ${id}: list the notes:// resources first.`);
  return note.split(/\s+/)[0] ?? "";
}
