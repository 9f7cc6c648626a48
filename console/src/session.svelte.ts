// The signed-in user, their memberships and the identity the capability map reads. Sign-in, sign-out,
// token refresh (before expiry and when the tab becomes visible) and the 401 path back to sign-in.
import PocketBase, { BaseAuthStore, ClientResponseError, getTokenPayload, type RecordModel } from "pocketbase";
import { ROLES, landingScreen, type Identity, type Role } from "./capabilities";
import { pb } from "./pb";
import { refreshDelayMs, refreshOnVisible } from "./refresh";
import { currentPath, navigate } from "./router.svelte";
import { pathOf, signInPath } from "./routes";

export interface Membership {
  id: string;
  organization: string;
  organizationName: string;
  role: Role;
}

export const session = $state({
  user: null as RecordModel | null,
  memberships: [] as Membership[],
  /** A word about a change the server made to this session (a membership removed); "" when none. */
  notice: "",
});

export function identity(): Identity {
  const user = session.user;
  const active = user ? session.memberships.find((m) => m.organization === user.current_organization) : undefined;
  return { role: active?.role ?? null, operator: user?.is_operator === true };
}

let timer: ReturnType<typeof setTimeout> | undefined;
let lastRefresh = 0;
/** When the memberships were last read; navigation reads them again at most every CHECK_INTERVAL_MS. */
let lastCheck = 0;
const CHECK_INTERVAL_MS = 5_000;

function scheduleRefresh(): void {
  clearTimeout(timer);
  const exp = getTokenPayload(pb.authStore.token).exp;
  if (typeof exp !== "number") return;
  timer = setTimeout(() => {
    // A timer re-armed after setTimeout's maximum only refreshes once the margin is reached.
    if (refreshDelayMs(exp, Date.now()) > 0) scheduleRefresh();
    else void refresh();
  }, refreshDelayMs(exp, Date.now()));
}

/** Refreshes the token; the refreshed user record, or null when it failed. */
async function refresh(): Promise<RecordModel | null> {
  try {
    const { record } = await pb.collection("users").authRefresh();
    lastRefresh = Date.now();
    if (session.user) session.user = record;
    scheduleRefresh();
    return record;
  } catch (error) {
    // A 401 is handled by the response hook below; a network failure keeps the session for the next try.
    if (!(error instanceof ClientResponseError) || error.status !== 401) scheduleRefresh();
    return null;
  }
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && session.user && refreshOnVisible(lastRefresh, Date.now())) void refresh();
});

// Any 401 on an authenticated request ends the session; sign-in brings the user back to this screen.
pb.afterSend = (response, data) => {
  if (response.status === 401 && pb.authStore.token) {
    endSession();
    navigate(signInPath(currentPath()), true);
  }
  return data;
};

const sessionListeners = new Set<() => void>();

/**
 * Runs `listener` after the session ends or the active organization changes, so holders of per-session
 * secrets (the bus client's creds) drop them. Returns the unsubscribe.
 */
export function onSessionChange(listener: () => void): () => void {
  sessionListeners.add(listener);
  return () => sessionListeners.delete(listener);
}

function sessionChanged(): void {
  for (const listener of sessionListeners) listener();
}

function endSession(): void {
  clearTimeout(timer);
  pb.authStore.clear();
  session.user = null;
  session.memberships = [];
  session.notice = "";
  sessionChanged();
}

/**
 * On navigation, at most every few seconds: whether the session still holds. PocketBase answers an
 * invalidated token (a password changed elsewhere, the user deleted) as a guest's, with 404s and empty
 * lists rather than a 401, so only a refresh tells, and its 401 ends the session (afterSend above). The
 * memberships are read again too: one removed while signed in closes its organization's screens, saying so.
 */
export async function checkSession(): Promise<void> {
  const user = session.user;
  if (!user || Date.now() - lastCheck < CHECK_INTERVAL_MS) return;
  lastCheck = Date.now();
  const before = session.memberships.find((m) => m.organization === user.current_organization);
  const record = await refresh();
  if (!record || !session.user) return;
  await loadMemberships(record);
  if (!before || session.memberships.some((m) => m.id === before.id)) return;
  session.notice = `You are no longer a member of ${before.organizationName}: its screens are closed.`;
  sessionChanged();
  navigate(pathOf(landingScreen(identity())), true);
}

/** On load: a stored users session is refreshed (which also proves it still works) and its memberships read. */
export async function restoreSession(): Promise<void> {
  if (!pb.authStore.isValid || pb.authStore.record?.collectionName !== "users") {
    pb.authStore.clear();
    return;
  }
  const user = await refresh();
  if (user) await loadMemberships(user);
}

export type SignInResult = "signed-in" | "superuser" | "refused";

/** Signs a user in; a SuperUser's credentials send them to the admin UI at /_/ instead (spec 2.2). */
export async function signIn(email: string, password: string): Promise<SignInResult> {
  try {
    const { record } = await pb.collection("users").authWithPassword(email, password);
    lastRefresh = Date.now();
    scheduleRefresh();
    // The user is published with the memberships, so the first screen chosen already knows the role.
    await loadMemberships(record);
    return "signed-in";
  } catch (error) {
    if (!(error instanceof ClientResponseError) || error.status !== 400) throw error;
  }
  // Not a user: a SuperUser? Checked with a throw-away client, so no SuperUser token is kept here.
  const probe = new PocketBase(pb.baseURL, new BaseAuthStore());
  try {
    await probe.collection("_superusers").authWithPassword(email, password);
    return "superuser";
  } catch {
    return "refused";
  }
}

/**
 * Creates a users account (the users create rule lets anyone sign up, never as an operator) and signs it
 * in. Used by the invitation page only: an account alone has nothing to see.
 */
export async function signUp(email: string, password: string): Promise<void> {
  await pb.collection("users").create({ email, password, passwordConfirm: password });
  const { record } = await pb.collection("users").authWithPassword(email, password);
  lastRefresh = Date.now();
  scheduleRefresh();
  await loadMemberships(record);
}

/** Reads the user record and memberships again, after the server changed them (an accepted invitation). */
export async function reloadSession(): Promise<void> {
  const user = session.user;
  if (!user) return;
  await loadMemberships(await pb.collection("users").getOne(user.id));
}

/**
 * Changes the signed-in user's password (the users update rule lets a user do that on its own record, with
 * the current password). PocketBase then refuses the old token, so the session signs in again at once.
 */
export async function changePassword(oldPassword: string, password: string): Promise<void> {
  const user = session.user;
  if (!user) return;
  await pb.collection("users").update(user.id, { oldPassword, password, passwordConfirm: password });
  const { record } = await pb.collection("users").authWithPassword(user.email, password);
  lastRefresh = Date.now();
  scheduleRefresh();
  session.user = record;
}

/** How a Leave is confirmed, wherever it is offered (Members, Settings). */
export const LEAVE_CONFIRMATION = {
  title: "Leave organization",
  message: "Leave this organization? You lose access at once; only a new invitation brings you back.",
  action: "Leave",
};

/**
 * Deletes the user's own membership (its delete clears current_organization, rule 9), then reads the
 * session again and opens the landing screen of what is left.
 */
export async function leaveOrganization(membership: string): Promise<void> {
  await pb.collection("memberships").delete(membership);
  await reloadSession();
  navigate(pathOf(landingScreen(identity())));
}

/** Ends the session and opens `to` (sign-in unless a page, like the invitation's, stays put). */
export function signOut(to = "/signin"): void {
  endSession();
  navigate(to);
}

/** Reads the user's memberships, then publishes user and memberships together. */
async function loadMemberships(user: RecordModel): Promise<void> {
  const rows = await pb.collection("memberships").getFullList({
    filter: pb.filter("user = {:user}", { user: user.id }),
    expand: "organization",
    sort: "created",
    fields: "id,organization,role,expand.organization.name",
  });
  const memberships = rows
    .filter((row) => (ROLES as readonly string[]).includes(row.role))
    .map((row) => ({ id: row.id, organization: row.organization, organizationName: row.expand?.organization?.name ?? row.organization, role: row.role as Role }));
  lastCheck = Date.now();
  // A user with memberships but no active organization starts in the first one
  // (docs/decisions/406-no-active-organization-at-sign-in.md).
  const first = memberships[0];
  const active = !user.current_organization && first ? await pb.collection("users").update(user.id, { current_organization: first.organization }) : user;
  session.memberships = memberships;
  session.user = active;
}

/** Writes users.current_organization; the rules allow only organizations the user belongs to. */
export async function switchOrganization(organization: string): Promise<void> {
  const user = session.user;
  if (!user || !session.memberships.some((m) => m.organization === organization)) return;
  session.user = await pb.collection("users").update(user.id, { current_organization: organization });
  sessionChanged();
}
