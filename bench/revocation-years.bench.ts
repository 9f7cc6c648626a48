// An account claim over two simulated years (issue 36 item 6): the tenant model of
// pb_hooks_src/bus/expiry-simulation.ts (10,000 devices, monthly renewal, 2 % decommissioned and 50 leaked
// credentials revoked a month, one account-wide revoke), its list pruned as the platform prunes it. At each
// month's end the claim is signed as the platform signs it and pushed to a real nats-server in operator
// mode ($SYS.REQ.CLAIMS.UPDATE), timed, 5 pushes each; beside it the same tenant's list without pruning.
// Figures are printed, never asserted.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeAccount, encodeOperator, encodeUser, fmtCreds } from "@nats-io/jwt";
import { createAccount, createOperator, createUser } from "@nats-io/nkeys";
import { connect, credsAuthenticator } from "@nats-io/transport-node";
import { accountClaims } from "../pb_hooks_src/bus/claims";
import { TWO_YEAR_TENANT, simulateTenant, type SimulatedDay } from "../pb_hooks_src/bus/expiry-simulation";
import { natsServerConfig } from "../pb_hooks_src/bus/server-config";
import { encodeJwt } from "../sidecar/jwt";
import { startNatsServer } from "../e2e/harness/nats";
import { freePorts } from "../e2e/harness/ports";
import { measure, report } from "./stats";

const UNLIMITED = { subs: -1, data: -1, payload: -1, imports: -1, exports: -1, wildcards: true, conn: -1, leaf: -1 };
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const operator = createOperator();
const signing = createOperator();
const system = createAccount();
const systemSigning = createAccount();
const tenant = createAccount();
const tenantSigning = createAccount();
// strict_signing_key_usage is a field nats-server reads that @nats-io/jwt's Operator type lacks.
const operatorFields = { signing_keys: [signing.getPublicKey()], system_account: system.getPublicKey(), strict_signing_key_usage: true };
const operatorJwt = await encodeOperator("bench", operator, operatorFields);
const systemJwt = await encodeAccount("SYS", system, { limits: UNLIMITED, signing_keys: [systemSigning.getPublicKey()] }, { signer: signing });
const systemUser = createUser();
const systemCreds = fmtCreds(await encodeUser("sys", systemUser, system.getPublicKey(), {}, { signer: systemSigning }), systemUser);

const scratch = mkdtempSync(join(tmpdir(), "revocation-years-"));
const [port, websocketPort, leafnodePort, monitorPort] = await freePorts(4);
const server = await startNatsServer({
  configText: natsServerConfig({
    serverName: "years",
    host: "127.0.0.1",
    port,
    websocketPort,
    leafnodePort,
    monitorHost: "127.0.0.1",
    monitorPort,
    operatorJwt,
    systemAccountPub: system.getPublicKey(),
    systemAccountJwt: systemJwt,
    resolverDir: join(scratch, "resolver"),
    jetstreamDir: join(scratch, "jetstream"),
    domain: "hub",
  }),
});
const sys = await connect({ servers: server.url, authenticator: credsAuthenticator(systemCreds) });

/** The tenant's claim with `list`, signed by the operator's signing key as the platform signs it. */
function claimWith(list: Record<string, number>, now: number): string {
  const claims = accountClaims({
    accountPub: tenant.getPublicKey(),
    name: "tenant",
    suspended: false,
    limits: { max_connections: -1, max_subscriptions: -1, max_payload: 1_048_576, max_persist_disk_storage: -1, max_persist_memory_storage: -1 },
    signingKeys: [tenantSigning.getPublicKey()],
    revocations: list,
    exports: [],
    imports: [],
  });
  return encodeJwt(text(signing.getSeed()), { ...claims, iat: now }, now);
}

let issued = 0;
async function push(list: Record<string, number>, now: number): Promise<{ ok: boolean; message: string }> {
  // Each push a claim issued later than the last: the resolver ignores one it already holds.
  try {
    const reply = (await sys.request("$SYS.REQ.CLAIMS.UPDATE", claimWith(list, now + ++issued), { timeout: 10_000 })).json<{ data?: { message?: string }; error?: { description?: string } }>();
    return reply.error ? { ok: false, message: reply.error.description ?? "refused" } : { ok: true, message: reply.data?.message ?? "" };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

try {
  const monthEnds: SimulatedDay[] = [];
  simulateTenant(TWO_YEAR_TENANT, (day) => {
    if (day.day % 30 === 0 || day.day === TWO_YEAR_TENANT.accountWideRevokeDay) monthEnds.push({ ...day, list: { ...day.list } });
  });
  // The same tenant without pruning: every key revoked so far stays on the list.
  const unpruned: Record<string, number> = {};
  let serial = 0;
  const months = (day: number) => Math.floor(day / 30);
  for (const day of monthEnds) {
    const size = claimWith(day.list, day.now).length;
    const samples = await measure(5, 1, () => push(day.list, day.now).then((r) => {
      if (!r.ok) throw new Error(`the hub refused the claim of day ${day.day}: ${r.message}`);
    }));
    // Without a wildcard, the account-wide revoke is an entry per device.
    const accountWide = day.day >= TWO_YEAR_TENANT.accountWideRevokeDay ? TWO_YEAR_TENANT.devices : 0;
    const revokedSoFar = accountWide + months(day.day) * (Math.round(TWO_YEAR_TENANT.devices * TWO_YEAR_TENANT.decommissionedPerMonth) + TWO_YEAR_TENANT.leakedPerMonth);
    while (serial < revokedSoFar) unpruned[`U${String(serial++).padStart(55, "B")}`] = day.now;
    const unprunedSize = claimWith(unpruned, day.now).length;
    report(`day ${day.day}: ${Object.keys(day.list).length} entries, claim ${(size / 1024).toFixed(1)} KiB (unpruned: ${serial} entries, ${(unprunedSize / 1024).toFixed(0)} KiB), apply`, samples, [50, 95]);
  }
  const unprunedAtEnd = claimWith(unpruned, monthEnds[monthEnds.length - 1].now);
  const refused = await push(unpruned, monthEnds[monthEnds.length - 1].now);
  console.log(`without pruning after two years: ${(unprunedAtEnd.length / 1024).toFixed(0)} KiB, the hub ${refused.ok ? "took it" : `refused it (${refused.message})`}`);
} finally {
  await sys.close();
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}
