// An edge site's leaf server built from GET /api/me/leaf-config alone (spec 4.2: the ten fields), run as a
// second pinned nats-server against the hub that `bus export` configured: the leaf attaches to the hub in
// the Thing's account, clients at the leaf and at the hub exchange messages both ways, the leaf's
// JetStream domain is the Thing's code, and another tenant at the hub sees none of it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectWithCreds, eventually, startPlatformWithBus, type PlatformWithBus } from "../harness/bus";
import { gatewayLeafConfig, startSiteLeaf } from "../harness/leaf";
import type { NatsServer } from "../harness/nats";
import { buildWorld, unique, type World } from "../harness/world";

let bus: PlatformWithBus;
let w: World;
let site: string; // the leaf's files: config, preload, creds, JetStream store
let leaf: NatsServer | undefined;
const open: NatsConnection[] = [];

beforeAll(async () => {
  bus = await startPlatformWithBus();
  w = await buildWorld(bus.platform);
  site = mkdtempSync(join(tmpdir(), "leaf-site-"));
}, 120_000);
afterAll(async () => {
  await Promise.all(open.map((nc) => nc.close().catch(() => undefined)));
  await leaf?.stop();
  await bus?.stop();
  if (site) rmSync(site, { recursive: true, force: true });
});

async function dial(url: string, creds: string): Promise<NatsConnection> {
  const nc = await connectWithCreds(url, creds);
  open.push(nc);
  return nc;
}

/** Publishes on `subject` from `sender` (every 100 ms: interest crosses the leaf link asynchronously) until `receiver` has a message. */
async function deliver(sender: NatsConnection, receiver: NatsConnection, subject: string, payload: string): Promise<string[]> {
  const got: string[] = [];
  const sub = receiver.subscribe(subject, { callback: (_err, msg) => void got.push(msg.string()) });
  await receiver.flush();
  const arrived = await eventually(async () => {
    if (got.length > 0) return true;
    sender.publish(subject, payload);
    await sender.flush();
    await new Promise((r) => setTimeout(r, 100));
    return got.length > 0;
  }, 10_000);
  sub.unsubscribe();
  expect(arrived, `${subject} did not arrive`).toBe(true);
  return [...new Set(got)];
}

interface Leafz {
  leafnodes: number;
  leafs: { name: string; account: string; ip: string }[];
}

describe("a leaf server configured from GET /api/me/leaf-config", () => {
  it("attaches to the hub in the Thing's account, carries messages both ways, runs JetStream under the Thing's code, and shows nothing to another tenant", async () => {
    // An owner creates a gateway Thing with a minted bus identity; the Thing signs in and asks for its leaf config.
    const { made, config } = await gatewayLeafConfig(bus.platform.url, await w.client("owner"));
    expect(Object.keys(config)).toHaveLength(10);
    expect(config.code).toBe(made.code);
    expect(config.domain).toBe(made.code);
    expect(config.hub_leaf_url).toBe(`nats-leaf://127.0.0.1:${bus.ports.leafnode}`);

    // The site: the leaf server's files as the gateway agent writes them (config, preload, creds; the
    // hub_leaf_url used as served: nats-server v2.15.2 dials the nats-leaf:// scheme as plain TCP), then the leaf.
    leaf = await startSiteLeaf(config, site);

    // The hub's monitoring lists the leaf connection: named after the Thing, bound to its account.
    const hubLeafz = async () => (await (await fetch(`http://127.0.0.1:${bus.ports.monitor}/leafz`)).json()) as Leafz;
    const attached = await eventually(async () => (await hubLeafz()).leafs?.some((l) => l.name === config.code) ?? false, 15_000);
    expect(attached, `no leaf at the hub; leaf log:\n${leaf.log()}`).toBe(true);
    expect((await hubLeafz()).leafs.filter((l) => l.name === config.code)).toEqual([expect.objectContaining({ name: config.code, account: config.account_pub })]);

    // A client at the leaf (the Thing's own creds), a client at the hub in the same account (a second
    // bus user of the organization), and a client of another organization at the hub.
    const atLeaf = await dial(leaf.url, config.creds);
    const colleague = await w.su.collection("bus_users").create({ organization: w.a.organization.id, name: unique("hub-user") });
    const atHub = await dial(bus.busUrl, colleague.creds_file);
    const stranger = await w.su.collection("bus_users").create({ organization: w.b.organization.id, name: unique("stranger") });
    const foreign = await dial(bus.busUrl, stranger.creds_file);
    const seenByForeign: string[] = [];
    foreign.subscribe(">", { callback: (_err, msg) => void seenByForeign.push(msg.subject) });
    await foreign.flush();

    const up = `site.${config.code}.up`;
    const down = `site.${config.code}.down`;
    expect(await deliver(atLeaf, atHub, up, "from the leaf")).toEqual(["from the leaf"]);
    expect(await deliver(atHub, atLeaf, down, "from the hub")).toEqual(["from the hub"]);
    // Request/reply across the link in both directions too (the reply crosses back on an inbox).
    atLeaf.subscribe("site.echo.leaf", { callback: (_err, msg) => void msg.respond(`leaf:${msg.string()}`) });
    atHub.subscribe("site.echo.hub", { callback: (_err, msg) => void msg.respond(`hub:${msg.string()}`) });
    await Promise.all([atLeaf.flush(), atHub.flush()]);
    const ask = async (nc: NatsConnection, subject: string) => {
      let answer = "";
      await eventually(async () => {
        answer = await nc.request(subject, "ping", { timeout: 500 }).then((m) => m.string(), () => "");
        return answer !== "";
      }, 10_000);
      return answer;
    };
    expect(await ask(atHub, "site.echo.leaf")).toBe("leaf:ping");
    expect(await ask(atLeaf, "site.echo.hub")).toBe("hub:ping");

    // The leaf's JetStream domain is the Thing's code: in its own monitoring, and answering under that
    // domain's API prefix, locally and from the hub across the leaf link.
    const varz = (await (await fetch(`${leaf.monitorUrl}/varz`)).json()) as { server_name: string; jetstream?: { config?: { domain?: string } } };
    expect(varz.server_name).toBe(config.code);
    expect(varz.jetstream?.config?.domain).toBe(config.code);
    const jsInfo = async (nc: NatsConnection) => {
      let info: { type?: string; domain?: string; error?: unknown } = {};
      await eventually(async () => {
        info = await nc.request(`$JS.${config.domain}.API.INFO`, "", { timeout: 1_000 }).then((m) => m.json<typeof info>(), () => ({}));
        return info.type !== undefined;
      }, 10_000);
      return info;
    };
    expect(await jsInfo(atLeaf)).toMatchObject({ type: "io.nats.jetstream.api.v1.account_info_response", domain: config.code });
    expect(await jsInfo(atHub)).toMatchObject({ type: "io.nats.jetstream.api.v1.account_info_response", domain: config.code });
    expect(config.hub_domain).not.toBe(config.domain);

    // The other tenant saw nothing of all this traffic, though its subscription is alive: a message of
    // its own organization, sent last, is all that reached it.
    const neighbour = await dial(bus.busUrl, (await w.su.collection("bus_users").create({ organization: w.b.organization.id, name: unique("neighbour") })).creds_file);
    neighbour.publish("control.b", "own tenant");
    await neighbour.flush();
    expect(await eventually(async () => seenByForeign.length > 0, 5_000)).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(seenByForeign).toEqual(["control.b"]);
  });
});
