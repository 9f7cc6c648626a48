/**
 * Thrown for input this module will not encode and bytes or text it cannot read. One class, so callers such
 * as cert-audit can tell "this certificate is unreadable" (skip the host) from a programming error.
 */
export class CertificateFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CertificateFormatError";
  }
}
