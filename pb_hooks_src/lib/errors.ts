/** An error a route answers with its own status and a message safe to show the caller. */
export class RouteError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new RouteError(400, message);
export const forbidden = (message: string) => new RouteError(403, message);
export const notFound = (message: string) => new RouteError(404, message);
