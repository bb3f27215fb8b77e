// Requests made by the builders are validated once and frozen; later checks can trust them.
const validated = new WeakSet<object>();

/** The set of input requests already validated (and frozen) by a builder. */
export const ValidatedRequests = {
  add<T extends object>(request: T): T {
    validated.add(request);
    return request;
  },
  has(request: unknown): boolean {
    return typeof request === "object" && request !== null && validated.has(request);
  },
};
