// Managed organizations (spec 2.1, 8.3 bus.managed_export_subject): the tenant's account exports the
// managed subtree, and the provider's account (the operator organization's) imports it remapped under
// `<subtree>.<organization code>.>`, so the provider tells tenants apart by subject.
import { findFirst } from "../lib/collections";
import { badRequest } from "../lib/errors";
import type { CollectionNames } from "../schema/names";
import { accountOf } from "./accounts";

export const MANAGED_EXPORT_NAME = "managed";

/** `helpdesk.>` → `helpdesk.acme.>` (the subject ends in `.>`, checked at startup). */
export function remappedSubject(exportSubject: string, organizationCode: string): string {
  return `${exportSubject.slice(0, -2)}.${organizationCode}.>`;
}

/** Creates the export and the provider's import once; later saves find them and do nothing. */
export function ensureManagedExchange(tx: CoreApp, n: CollectionNames, subject: string, organization: core.Record): void {
  if (!organization.getBool("managed") || organization.getBool("is_operator_org")) return;
  if (findFirst(tx, n.bus_account_exports, "organization = {:org} && name = {:name}", { org: organization.id, name: MANAGED_EXPORT_NAME })) return;
  const provider = findFirst(tx, n.organizations, "is_operator_org = true", {});
  const providerAccount = provider && accountOf(tx, n, provider.id);
  const tenantAccount = accountOf(tx, n, organization.id);
  if (!providerAccount || !tenantAccount) {
    throw badRequest("a managed organization needs the operator organization's bus account: run bootstrap first");
  }
  const exported = new Record(tx.findCollectionByNameOrId(n.bus_account_exports));
  exported.load({ organization: organization.id, name: MANAGED_EXPORT_NAME, subject, kind: "stream" });
  tx.save(exported);
  const imported = new Record(tx.findCollectionByNameOrId(n.bus_account_imports));
  imported.load({
    organization: provider.id,
    name: `${MANAGED_EXPORT_NAME} ${organization.getString("code")}`,
    subject,
    kind: "stream",
    account_pub: tenantAccount.getString("public_key"),
    local_subject: remappedSubject(subject, organization.getString("code")),
  });
  tx.save(imported);
}

/**
 * Before a managed organization's delete: the provider's import of its account goes with it. It would
 * stay in the provider's claim importing a withdrawn account, and an organization made later with the
 * same code would add a second import of the same local subject.
 */
export function removeManagedImport(tx: CoreApp, n: CollectionNames, organization: core.Record): void {
  const account = accountOf(tx, n, organization.id);
  const provider = findFirst(tx, n.organizations, "is_operator_org = true", {});
  if (!account || !provider || provider.id === organization.id) return;
  const imported = findFirst(tx, n.bus_account_imports, "organization = {:provider} && name = {:name} && account_pub = {:account}", {
    provider: provider.id,
    name: `${MANAGED_EXPORT_NAME} ${organization.getString("code")}`,
    account: account.getString("public_key"),
  });
  if (imported) tx.delete(imported);
}
