import { describe, expect, it } from "vitest";
import { tunnelEvent } from "./nebula-log";
import { Tunnels } from "./tunnels";

// Lines as nebula 1.11.1 printed them in a run between two network namespaces.
const RECEIVED_INITIATOR =
  'time=2026-11-23T23:59:44.210Z level=INFO msg="Handshake message received" vpnAddrs=[10.9.0.1] from=192.0.2.1:4242 certName=lh certVersion=2 fingerprint=185e issuer=66b7 initiatorIndex=463158315 responderIndex=1600517634 handshake="map[stage:2 style:ix_psk0]" durationNs=3362992 sentCachedPackets=1';
const SENT = 'time=2026-11-23T23:59:44.208Z level=INFO msg="Handshake message sent" vpnAddrs=[10.9.0.1] localIndex=463158315 remoteIndex=0 udpAddrs=[192.0.2.1:4242] initiatorIndex=463158315 handshake="map[stage:1 style:ix_psk0]"';
const BLOCKED =
  'time=2026-11-23T23:59:55.717Z level=INFO msg="Remote certificate is blocked, tearing down the tunnel" vpnAddrs=[10.9.0.2] localIndex=1600517634 remoteIndex=463158315 certName=a error="certificate is in the block list" fingerprint=a51b';
const CLOSED = 'time=2026-11-23T23:59:55.718Z level=INFO msg="Close tunnel received, tearing down." vpnAddrs=[10.9.0.1] localIndex=463158315 remoteIndex=1600517634 certName=lh from=192.0.2.1:4242';
const TIMED_OUT = 'time=2026-11-24T00:00:02.391Z level=INFO msg="Handshake timed out" vpnAddrs=[10.9.0.1] localIndex=1968454922 remoteIndex=0';

describe("tunnelEvent", () => {
  it("reads a completed handshake as a tunnel up, with the peer's addresses", () => {
    expect(tunnelEvent(RECEIVED_INITIATOR)).toEqual({ kind: "up", vpnAddrs: ["10.9.0.1"] });
    expect(tunnelEvent('level=INFO msg="Handshake message received" vpnAddrs="[10.9.0.1 fd00::1]" from=x')).toEqual({ kind: "up", vpnAddrs: ["10.9.0.1", "fd00::1"] });
  });

  it("reads teardowns as a tunnel down", () => {
    expect(tunnelEvent(BLOCKED)).toEqual({ kind: "down", vpnAddrs: ["10.9.0.2"] });
    expect(tunnelEvent(CLOSED)).toEqual({ kind: "down", vpnAddrs: ["10.9.0.1"] });
    expect(tunnelEvent('level=INFO msg="Tunnel status" vpnAddrs=[10.9.0.3] tunnelCheck="map[method:active state:dead]"')).toEqual({ kind: "down", vpnAddrs: ["10.9.0.3"] });
  });

  it("ignores handshakes in progress, live tunnel checks and other lines", () => {
    expect(tunnelEvent(SENT)).toBeNull();
    expect(tunnelEvent(TIMED_OUT)).toBeNull();
    expect(tunnelEvent('level=DEBUG msg="Tunnel status" vpnAddrs=[10.9.0.3] tunnelCheck="map[method:passive state:alive]"')).toBeNull();
    expect(tunnelEvent("time=x level=INFO msg=listening addr=0.0.0.0:4242")).toBeNull();
    expect(tunnelEvent('level=ERROR msg="Failed to process handshake packet" from=192.0.2.2:4242 error="verify cert: certificate is in the block list"')).toBeNull();
  });
});

describe("Tunnels", () => {
  it("tracks the peers whose tunnel is up", () => {
    const t = new Tunnels();
    expect(t.observe(SENT)).toBe(false);
    expect(t.observe(RECEIVED_INITIATOR)).toBe(true);
    expect(t.count).toBe(1);
    expect(t.anyUp(["10.9.0.1"])).toBe(true);
    expect(t.anyUp(["10.9.0.7"])).toBe(false);
    t.observe(CLOSED);
    expect(t.count).toBe(0);
    t.observe(RECEIVED_INITIATOR);
    t.clear();
    expect(t.anyUp(["10.9.0.1"])).toBe(false);
  });
});
