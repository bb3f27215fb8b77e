/** A class whose instances class-validator can validate (a DTO). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DtoClass<T extends object = object> = new (...args: any[]) => T;
