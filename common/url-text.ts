// URLs as messages and reports show them. A bus URL may carry a user and password, or a token, before
// its host (nats://user:secret@host:4222); /api/ready's body is public and logs are read widely, so
// that part is never shown.

/** `url` without its userinfo; any other text is returned as it is. */
export function withoutCredentials(url: string): string {
  return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^@/?#]*@/, "$1");
}
