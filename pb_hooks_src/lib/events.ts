// The generated types mark every Go pointer optional; PocketBase always sets these on the events the
// platform handles, so they are unwrapped once here.
export function recordOf(e: { record?: core.Record }): core.Record {
  if (!e.record) throw new Error("record event without a record");
  return e.record;
}

export function requestOf(e: core.RequestEvent): http.Request {
  if (!e.request) throw new Error("request event without a request");
  return e.request;
}

/**
 * A record request event's HTTP request. goja promotes the fields of an embedded struct one level only,
 * and this one sits two levels down (RecordRequestEvent → RequestEvent → router.Event): `e.request` is
 * undefined at run time, whatever the generated types say.
 */
export function requestOfRecordEvent(e: core.RecordRequestEvent): http.Request {
  const embedded = (e as unknown as { requestEvent?: core.RequestEvent }).requestEvent;
  return requestOf(embedded ?? e);
}

export function rootCommand(): cobra.Command {
  if (!$app.rootCmd) throw new Error("the app has no root command");
  return $app.rootCmd;
}
