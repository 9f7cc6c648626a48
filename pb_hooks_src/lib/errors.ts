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

/**
 * Runs the work of a record hook so that a RouteError reaches the caller with its own status and message:
 * the record API answers PocketBase's ApiError as it is, and any other error as a bare 400 ("Failed to
 * update record.").
 */
export function withApiErrors<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof RouteError) throw new ApiError(err.status, err.message, {});
    throw err;
  }
}

/** The first line of a thrown value's message: Go errors reaching JS can carry a multi-line trace. */
export function firstLineOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0];
}
