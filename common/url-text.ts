// URLs as messages and reports show them. A bus URL may carry a user and password, or a token, before
// its host (nats://user:secret@host:4222); /api/ready's body is public and logs are read widely, so
// that part is never shown.

/** `text` with the userinfo of every URL in it removed (one URL, or several separated by spaces). */
export function withoutCredentials(text: string): string {
  return text.replace(/(^|\s)([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^@/?#\s]*@/g, "$1$2");
}
