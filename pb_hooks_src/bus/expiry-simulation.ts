// A tenant's revocation list over years, on a fake clock (issue 36 item 4): the renewal and pruning rules
// of bus/expiry.ts applied day by day to a fleet that renews every credential, decommissions some devices
// and revokes leaked credentials each month, and once revokes and replaces the whole account. Driven by
// expiry.test.ts (the list stays small and nothing revoked is ever re-admitted) and by
// bench/revocation-years.bench.ts (claim size and apply time on a real nats-server). Pure.
import { WILDCARD, prunedRevocations, renewalDue, type RevocationList } from "./expiry";

export interface TenantModel {
  devices: number;
  days: number;
  lifetimeSeconds: number;
  /** Share of the fleet decommissioned each month (replaced by as many new devices). */
  decommissionedPerMonth: number;
  leakedPerMonth: number;
  /** The day of the one account-wide revoke-and-replace. */
  accountWideRevokeDay: number;
}

export const TWO_YEAR_TENANT: TenantModel = {
  devices: 10_000,
  days: 730,
  lifetimeSeconds: 30 * 86_400,
  decommissionedPerMonth: 0.02,
  leakedPerMonth: 50,
  accountWideRevokeDay: 400,
};

export interface SimulatedDay {
  day: number;
  now: number;
  list: RevocationList;
  renewed: number;
  /** Revoked keys whose last credential the day's list and expiries would admit: must stay 0. */
  readmitted: number;
}

interface Credential {
  key: string;
  issuedAt: number;
  expires: number;
}

const DAY = 86_400;
const MONTH_DAYS = 30;

/** Runs the model, calling `observe` with each day's list after that day's writes and upkeep. */
export function simulateTenant(model: TenantModel, observe: (day: SimulatedDay) => void, start = 1_800_000_000): void {
  let serial = 0;
  const newKey = () => `U${String(serial++).padStart(55, "A")}`;
  const lifetime = model.lifetimeSeconds;
  // Enrolled over the first half lifetime, so renewals spread out as they would in a real fleet.
  const fleet: Credential[] = Array.from({ length: model.devices }, (_, i) => {
    const issuedAt = start - Math.floor((i / model.devices) * (lifetime / 2));
    return { key: newKey(), issuedAt, expires: issuedAt + lifetime };
  });
  let list: RevocationList = {};
  const revoked: Credential[] = [];
  const mint = (key: string, now: number): Credential => {
    const cutoff = Math.max(list[key] ?? 0, list[WILDCARD] ?? 0);
    const issuedAt = Math.max(now, cutoff + 1);
    return { key, issuedAt, expires: issuedAt + lifetime };
  };
  const revoke = (index: number, now: number, replaceKey: boolean) => {
    const old = fleet[index];
    list[old.key] = Math.max(list[old.key] ?? 0, now, old.issuedAt);
    revoked.push(old);
    fleet[index] = mint(replaceKey ? newKey() : old.key, now);
  };

  for (let day = 1; day <= model.days; day++) {
    const now = start + day * DAY;
    if (day % MONTH_DAYS === 0) {
      const decommissioned = Math.round(model.devices * model.decommissionedPerMonth);
      // A decommissioned device's row goes inactive; the fleet size is kept by a new device in its place.
      for (let i = 0; i < decommissioned + model.leakedPerMonth; i++) revoke((day * 7919 + i * 104_729) % fleet.length, now, true);
    }
    if (day === model.accountWideRevokeDay) {
      for (const old of fleet) revoked.push(old);
      list[WILDCARD] = now;
      for (let i = 0; i < fleet.length; i++) fleet[i] = mint(newKey(), now);
    }
    let renewed = 0;
    for (let i = 0; i < fleet.length; i++) {
      if (!renewalDue(fleet[i].expires, now, lifetime)) continue;
      fleet[i] = mint(fleet[i].key, now);
      renewed++;
    }
    list = prunedRevocations(list, { now, longestLifetime: lifetime, unexpiringUntil: 0 }).list;
    const admitted = (c: Credential) => c.expires >= now && (list[c.key] ?? 0) < c.issuedAt && (list[WILDCARD] ?? 0) < c.issuedAt;
    // nats-server admits a JWT up to and including its expiry second.
    observe({ day, now, list, renewed, readmitted: revoked.filter(admitted).length });
  }
}
