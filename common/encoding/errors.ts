/**
 * Thrown for input an encoding will not write and bytes or text it cannot read. One class, so a caller can
 * tell unreadable input (a certificate to skip, a header to refuse) from a programming error.
 */
export class FormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FormatError";
  }
}
