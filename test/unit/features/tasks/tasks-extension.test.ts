// Pins the tasks extension's capability facts (features/tasks/tasks-extension.ts), the one place
// its -32021 payload is made (tasks.e2e.test.ts asserts where it is answered):
// - declaresTasks: only an object under extensions["io.modelcontextprotocol/tasks"] declares it;
// - receivesTasks: a request of 2026-07-28 (a protocol version in its _meta) that declares it;
// - tasksCapabilityMissing: -32021 with data
//   { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } }, its message
//   naming the extension, what the request declared and what declaring it gets (clients that drop
//   `data` still show why); to a 2025-era request (no protocol version) the message says a
//   2026-07-28 client is needed, same data.
import {
  declaresTasks,
  LEGACY_TASK_TOOL,
  receivesTasks,
  tasksCapabilityMissing,
  TASKS_EXTENSION,
} from "../../../../src/features/tasks/tasks-extension";

const DECLARING = { extensions: { [TASKS_EXTENSION]: {} } };

describe("the tasks extension's capability", () => {
  it("is declared only by an object under its key", () => {
    expect(declaresTasks(DECLARING)).toBe(true);
    expect(declaresTasks({})).toBe(false);
    expect(declaresTasks({ extensions: { [TASKS_EXTENSION]: true } } as never)).toBe(false);
    expect(declaresTasks({ extensions: { "io.modelcontextprotocol/other": {} } })).toBe(false);
  });

  it("lets a task reach only a 2026-07-28 request that declared it", () => {
    expect(receivesTasks({ clientCapabilities: DECLARING, protocolVersion: "2026-07-28" })).toBe(true);
    expect(receivesTasks({ clientCapabilities: DECLARING, protocolVersion: undefined })).toBe(false);
    expect(receivesTasks({ clientCapabilities: {}, protocolVersion: "2026-07-28" })).toBe(false);
  });

  it("refuses with the -32021 payload naming the extension, what the request declared and what declaring it gets", () => {
    const data = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } };
    expect(tasksCapabilityMissing({ protocolVersion: "2026-07-28", clientCapabilities: { elicitation: {} } }).toJSON()).toEqual({
      code: -32021,
      message:
        "Missing required client capability: extensions.io.modelcontextprotocol/tasks. This request did not declare it in _meta " +
        "io.modelcontextprotocol/clientCapabilities (it declared elicitation); a request that declares " +
        "extensions.io.modelcontextprotocol/tasks there is answered with a task.",
      data,
    });
    expect(tasksCapabilityMissing({ protocolVersion: "2026-07-28", clientCapabilities: {} }, "served").message).toContain(
      "(it declared no capabilities); a request that declares extensions.io.modelcontextprotocol/tasks there is served.",
    );
  });

  it("tells a 2025-era client a 2026-07-28 client is needed", () => {
    const data = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } };
    expect(tasksCapabilityMissing({ protocolVersion: undefined, clientCapabilities: {} }).toJSON()).toEqual({
      code: -32021,
      message: LEGACY_TASK_TOOL,
      data,
    });
    expect(LEGACY_TASK_TOOL).toContain("call it from a 2026-07-28 client that declares the tasks extension");
  });
});
