/** Thrown while the app is built: names the class and method at fault. */
export class RegistrationError extends Error {
  override readonly name = "RegistrationError";
}
