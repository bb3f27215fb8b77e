import type { AppLogger } from "../../protocol/app-logger";
import { ErrorCode, isMcpError, McpError } from "../../protocol/errors";
import type { TaskStoreErrorCode } from "../../stores/task-store-errors";

/**
 * A store operation's failure as the client sees it: a limit is the client's (-32602, naming
 * the limit); anything else is the server's (-32603, generic), with the cause in the app logger.
 */
export function storeFailure(error: unknown, logger: AppLogger, operation: string): McpError {
  if (isMcpError(error)) return error;
  const code = (error as { code?: TaskStoreErrorCode } | null)?.code;
  if (code === "task-limit") return new McpError(ErrorCode.InvalidParams, error instanceof Error ? error.message : String(error));
  logger.error("task store operation failed", {
    operation,
    code,
    error: error instanceof Error ? error.message : String(error),
    cause: error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined,
  });
  return new McpError(ErrorCode.InternalError, "Internal error");
}
