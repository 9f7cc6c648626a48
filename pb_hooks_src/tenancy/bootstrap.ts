// `bootstrap`: the first Platform Operator, the system organization and the operator organization.
import { findFirst } from "../lib/collections";
import { randomPassword } from "../lib/random";
import { transaction } from "../lib/transaction";
import type { CollectionNames } from "../schema/names";
import { slugify } from "../../common/tenancy/slug";

export interface BootstrapOptions {
  email: string;
  password: string;
  systemOrganization: string;
  operatorOrganization: string;
}

export interface BootstrapResult {
  email: string;
  /** Present only when generated: shown once, never stored in clear. */
  generatedPassword?: string;
  systemOrganization: string;
  operatorOrganization: string;
}

export function bootstrap(app: CoreApp, n: CollectionNames, options: BootstrapOptions): BootstrapResult {
  if (!schemaPresent(app, n)) throw new Error("the platform schema is missing: run `migrate up` first, then `bootstrap`");
  if (!options.email) throw new Error("--email is required");
  if (isBootstrapped(app, n)) {
    throw new Error("already bootstrapped: a Platform Operator or the system organization exists; nothing was changed");
  }
  const password = options.password || randomPassword();
  const systemCode = slugify(options.systemOrganization);
  let operatorCode = slugify(options.operatorOrganization);
  if (operatorCode === systemCode) operatorCode = `${operatorCode}-operators`;

  transaction(app, (tx) => {
    const organizations = tx.findCollectionByNameOrId(n.organizations);
    const system = new Record(organizations);
    system.load({ code: systemCode, name: options.systemOrganization, active: true, is_system_org: true });
    tx.save(system);
    const operators = new Record(organizations);
    operators.load({ code: operatorCode, name: options.operatorOrganization, active: true, is_operator_org: true });
    tx.save(operators);

    const user = new Record(tx.findCollectionByNameOrId(n.users));
    user.setEmail(options.email);
    user.setPassword(password);
    user.setVerified(true);
    user.set("is_operator", true);
    tx.save(user);

    const membership = new Record(tx.findCollectionByNameOrId(n.memberships));
    membership.load({ user: user.id, organization: operators.id, role: "owner" });
    tx.save(membership);
    user.set("current_organization", operators.id);
    tx.save(user);
  });

  return {
    email: options.email,
    generatedPassword: options.password ? undefined : password,
    systemOrganization: systemCode,
    operatorOrganization: operatorCode,
  };
}

function schemaPresent(app: CoreApp, n: CollectionNames): boolean {
  try {
    app.findCollectionByNameOrId(n.organizations);
    return true;
  } catch {
    return false;
  }
}

/** Readiness's bootstrap check and this command agree on what "bootstrapped" means. */
export function isBootstrapped(app: CoreApp, n: CollectionNames): boolean {
  return !!findFirst(app, n.users, "is_operator = true", {}) || !!findFirst(app, n.organizations, "is_system_org = true", {});
}
