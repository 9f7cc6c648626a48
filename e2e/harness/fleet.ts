// An organization set up the way an operator does it, on a running platform: a Platform Operator creates
// it, an owner (a member) signs in to create its Things. For the tests and benches that run enrolled agents.
import type PocketBase from "pocketbase";
import type { Platform } from "./platform";
import { PASSWORD, client, createMember, createUser, unique } from "./world";

export interface Fleet {
  su: PocketBase;
  operator: PocketBase;
  owner: PocketBase;
  organizationId: string;
}

export async function createFleet(platform: Platform, name: string): Promise<Fleet> {
  const su = await platform.superuser();
  const operatorUser = await createUser(su, `${unique("operator")}@example.test`, { is_operator: true });
  const operator = client(platform.url);
  await operator.collection("users").authWithPassword(operatorUser.email as string, PASSWORD);
  const organizationId = (await operator.collection("organizations").create({ name, code: unique("fleet"), active: true })).id;
  return { su, operator, owner: await signedInOwner(platform.url, su, organizationId), organizationId };
}

/** A new owner of the organization, signed in. */
export async function signedInOwner(platformUrl: string, su: PocketBase, organizationId: string): Promise<PocketBase> {
  const member = await createMember(su, organizationId, "owner");
  const owner = client(platformUrl);
  await owner.collection("users").authWithPassword(member.email as string, PASSWORD);
  return owner;
}
