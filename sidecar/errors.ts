// Errors the server answers with their own status. Their messages are written by this program and name
// fields, never values, so no seed, token or creds text can reach a response or a log.

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

// Shapes of secrets that a library's error text might echo: nkey seeds and JWTs.
const SEED = /\bS[A-Z][A-Z2-7]{56}\b/g;
const JWT = /\beyJ[\w-]*\.[\w-]+\.[\w-]+/g;

/** A library's error message with anything shaped like a seed or a JWT replaced. */
export function redact(message: string): string {
  return message.replace(SEED, "[seed]").replace(JWT, "[jwt]");
}

/** The status and body for any error thrown by a handler. */
export function errorResponse(err: unknown): { status: number; body: { error: string } } {
  if (err instanceof HttpError) return { status: err.status, body: { error: err.message } };
  const message = err instanceof Error ? redact(err.message) : "unknown error";
  return { status: 500, body: { error: `internal error: ${message}` } };
}
