// Writes in a large tenant (issue 9: "fast for a 100,000-device tenant"): POST /api/org/things, one
// request at a time, without identities and with bus auto + overlay auto, then the deletion of each such
// Thing's overlay host and bus user (the Thing keeps a link to each, which PocketBase clears), in an
// organization that holds 100,000 Things and a network of 100,000 hosts, alternated request by request
// with the same writes in an empty organization of the same platform (so the machine's drift hits both).
// A write's lookups (whether a code is taken, the network's lighthouses, the records that point at one
// deleted) must not grow with the tenant (docs/performance.md "Writes in a large tenant"). Figures are
// printed, never asserted.
import type PocketBase from "pocketbase";
import { startPlatformWithBus } from "../e2e/harness/bus";
import { client, createMember, createOrganization, PASSWORD } from "../e2e/harness/world";
import { bulkInsert, insertForOrganization, ROWS, THINGS_INSERT } from "./organization-rows";
import { measure, report } from "./stats";

const CREATES = Number(process.env.BENCH_CREATES ?? "150");
const WARMUP = 10;
const PERCENTILES = [50, 95, 99] as const;

interface Tenant {
  owner: PocketBase;
  networkId: string;
  /** The Things made with identities, whose identities are deleted last. */
  full: string[];
}

const bus = await startPlatformWithBus();
try {
  const booted = await bus.platform.command(["bootstrap", "--email", "bench-operator@example.test", "--password", "bench-password-1"]);
  if (booted.code !== 0) throw new Error(`bootstrap failed: ${booted.stderr}`);
  const su = await bus.platform.superuser();

  const tenant = async (name: string): Promise<Tenant & { organization: string }> => {
    const org = await createOrganization(su, name);
    const network = await su.collection("overlay_networks").create({ organization: org.id, name: "net", cidr: "10.0.0.0/8" });
    const owner = client(bus.platform.url);
    await owner.collection("users").authWithPassword((await createMember(su, org.id, "owner")).email as string, PASSWORD);
    return { owner, networkId: network.id, organization: org.id, full: [] };
  };
  const empty = await tenant("Empty");
  const large = await tenant("Large");
  insertForOrganization(bus.platform.dataDir, large.organization, [
    THINGS_INSERT,
    bulkInsert("overlay_hosts", "name, network, overlay_ip, active",
      `'host ' || i, '${large.networkId}', printf('10.%d.%d.%d', i / 65536, (i / 256) % 256, i % 256), 1`),
  ]);

  // Addresses above the bulk hosts' (10.0.0.0-10.1.134.159), one per creation.
  let next = 0;
  const fullBody = (networkId: string) => {
    const n = ++next;
    return { name: `full ${n}`, bus: { mode: "auto" }, overlay: { mode: "auto", network_id: networkId, overlay_ip: `10.${100 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}` } };
  };
  let plain = 0;
  const plainBody = () => ({ name: `plain ${plain++}` });

  /** Runs `write` for each tenant in turn, 2 × (count + WARMUP) times, and prints each tenant's latencies. */
  const alternate = async (label: string, count: number, write: (t: Tenant, i: number) => Promise<unknown>) => {
    const samples = new Map<Tenant, number[]>([[empty, []], [large, []]]);
    await measure(2 * count, 2 * WARMUP, async (i) => {
      const t = i % 2 === 0 ? empty : large;
      const start = performance.now();
      await write(t, i >> 1);
      if (i >= 2 * WARMUP) samples.get(t)?.push(performance.now() - start);
    });
    report(`${label}, an empty organization`, samples.get(empty) ?? [], PERCENTILES);
    report(`${label}, ${ROWS.toLocaleString("en")} Things and ${ROWS.toLocaleString("en")} hosts in the organization`, samples.get(large) ?? [], PERCENTILES);
  };
  const create = (t: Tenant, body: object) => t.owner.send("/api/org/things", { method: "POST", body });

  await alternate("POST /api/org/things, no identities", CREATES, (t) => create(t, plainBody()));
  await alternate("POST /api/org/things, bus auto + overlay auto", CREATES, async (t) => t.full.push((await create(t, fullBody(t.networkId))).id));
  const identities = async (t: Tenant) => Promise.all(t.full.map((id) => t.owner.collection("things").getOne<{ bus_user: string; overlay_host: string }>(id)));
  const linked = new Map<Tenant, { bus_user: string; overlay_host: string }[]>([[empty, await identities(empty)], [large, await identities(large)]]);
  const identity = (t: Tenant, i: number) => linked.get(t)?.[i] ?? { bus_user: "", overlay_host: "" };
  await alternate("DELETE an overlay host a Thing links", CREATES, (t, i) => t.owner.collection("overlay_hosts").delete(identity(t, i).overlay_host));
  await alternate("DELETE a bus user a Thing links", CREATES, (t, i) => t.owner.collection("bus_users").delete(identity(t, i).bus_user));
} finally {
  await bus.stop();
}
