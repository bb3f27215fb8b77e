import type { JsonObject } from "./wire-types";

/** A bare `roots/list` input request. */
export type ListRootsRequest = { method: "roots/list"; params: { _meta?: JsonObject } };
/** One root the client exposes; `uri` is a `file://` URI. */
export type Root = { uri: string; name?: string; _meta?: JsonObject };
export type ListRootsResult = { roots: Root[] };
