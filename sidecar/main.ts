// The platform sidecar: curve crypto and NATS connections for PocketBase's goja hooks, on 127.0.0.1.
// Contract (docs/sidecar.md): read {"token","stateFile"} as one line on stdin, listen on a free loopback
// port, write {"port","pid"} to stateFile, serve until stdin closes or the parent changes.
import type { AddressInfo } from "node:net";
import { MAX_BODY_BYTES } from "./body";
import { watchParent } from "./lifecycle";
import { busNodes } from "./bus-info";
import { NatsPool } from "./nats";
import { NodeWatch } from "./node-watch";
import { LeaseHolder } from "./lease";
import type { LeaseHoldRequest } from "../common/sidecar/protocol";
import { pocketBasePost } from "./pocketbase-client";
import { Prober } from "./prober";
import { startUpkeep } from "./upkeep";
import { DeferredClaims } from "./deferred-claims";
import type { Repeating } from "./repeat";
import { v1Routes } from "./routes";
import { createSidecarServer } from "./server";
import { announceStarted } from "./started";
import { parseStartupLine, readFirstLine, removeStateFile, writeStateFile } from "./startup";

const STARTUP_LINE_TIMEOUT_MS = 10_000;
// Closing NATS connections and the server is quick; never let a stuck close keep us alive.
const EXIT_GRACE_MS = 1_000;

async function main(): Promise<void> {
  const { token, stateFile, probe } = parseStartupLine(await readFirstLine(process.stdin, STARTUP_LINE_TIMEOUT_MS));
  const nats = new NatsPool();
  const post = probe && pocketBasePost(probe, token);
  const warn = (message: string) => console.error(`platform sidecar: ${message}`);
  let lease: LeaseHolder | undefined;
  const holdLease = post
    ? (request: LeaseHoldRequest) => {
        if (lease?.sameAs(request)) return;
        void lease?.stop(false);
        lease = new LeaseHolder(request, { post, now: Date.now, warn });
        lease.start();
      }
    : undefined;
  const releaseLease = async () => {
    await lease?.stop(true);
    lease = undefined;
  };
  const deferredClaims = post && new DeferredClaims(post, warn);
  const signClaimLater = deferredClaims ? (account: string) => void deferredClaims.hand(account) : undefined;
  const server = createSidecarServer({
    token,
    routes: v1Routes({ nats, holdLease, releaseLease, signClaimLater, nowSeconds: () => Math.floor(Date.now() / 1000) }),
    maxBodyBytes: MAX_BODY_BYTES,
  });

  const prober = probe && post && new Prober(probe, { post, now: Date.now });
  const nodeWatch = probe?.busNodes && post && new NodeWatch(probe.busNodes, { post, readNodes: busNodes, warn });
  let upkeep: Repeating | undefined;
  let leaving = false;

  watchParent({
    stdin: process.stdin,
    parentPid: () => process.ppid,
    onGone: () => {
      leaving = true;
      setTimeout(() => process.exit(0), EXIT_GRACE_MS).unref();
      prober?.stop();
      nodeWatch?.stop();
      upkeep?.stop();
      removeStateFile(stateFile);
      server.close();
      server.closeAllConnections();
      // Not released: PocketBase may have died with Litestream still making its last upload, so the lease
      // lapses by itself (serve's own stop releases it first, once Litestream is done: /v1/lease/release).
      void Promise.allSettled([nats.closeAll(), lease?.stop(false)]).finally(() => process.exit(0));
    },
  });

  server.on("error", (err) => {
    writeStateFile(stateFile, { error: `cannot listen on 127.0.0.1: ${err.message}` });
    process.exit(1);
  });
  server.listen(0, "127.0.0.1", () => {
    writeStateFile(stateFile, { port: (server.address() as AddressInfo).port, pid: process.pid });
    // Under serve: tell PocketBase once it listens (its start work waits for that), then probe.
    if (post && prober) {
      void announceStarted(post, () => leaving).then(() => {
        if (leaving) return;
        prober.start();
        nodeWatch?.start();
        if (probe.upkeepIntervalMs) upkeep = startUpkeep(probe.upkeepIntervalMs, post, warn);
      });
    }
  });
}

main().catch((err: unknown) => {
  // Our own messages only (the startup line is never quoted); the parent sees the missing state file.
  console.error(`platform sidecar: ${err instanceof Error ? err.message : "failed to start"}`);
  process.exit(2);
});
