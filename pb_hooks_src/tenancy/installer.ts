// PocketBase's first-run installer: while no SuperUser exists, `serve` creates a placeholder SuperUser
// and prints a link to the admin UI carrying a 30-minute token of it, which can create SuperUsers
// (apis/installer.go). A log is not a place for a credential, so the platform turns it off: the
// placeholder cannot be created, and one left by an earlier start is removed before serve listens.
// The first SuperUser is made with `scripts/platform superuser upsert EMAIL PASSWORD` (README).

/** The placeholder's address (core.DefaultInstallerEmail). */
const INSTALLER_EMAIL = "__pbinstaller@example.com";
const SUPERUSERS = "_superusers";

/** onRecordValidate: the placeholder is refused, so the installer fails before it prints its link. */
export function refuseInstallerSuperuser(record: core.Record): void {
  if (record.collection().name !== SUPERUSERS || record.getString("email") !== INSTALLER_EMAIL) return;
  throw new BadRequestError("the first-run installer is turned off: create a SuperUser with `scripts/platform superuser upsert EMAIL PASSWORD`");
}

/**
 * serve's onBootstrap: a placeholder an earlier start created goes, and every token of it with it; while
 * there is no SuperUser, the log says how to make one instead of the link.
 */
export function turnOffInstaller(app: CoreApp): void {
  app.db().newQuery(`DELETE FROM {{${SUPERUSERS}}} WHERE [[email]] = {:email}`).bind({ email: INSTALLER_EMAIL }).execute();
  if (app.countRecords(SUPERUSERS) === 0) console.log(NO_SUPERUSER_HINT);
}

export const NO_SUPERUSER_HINT = "No SuperUser yet (the admin UI at /_/ needs one): create it with `scripts/platform superuser upsert EMAIL PASSWORD`.";
