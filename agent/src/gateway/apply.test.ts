import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyLeafConfig, readApplied } from "./apply";
import type { LeafConfig } from "../../../common/bus/leaf-config";
import { leafFiles, type LeafPlaces } from "./leaf-files";

const served: LeafConfig = {
  code: "gw-1", domain: "gw-1", creds: "creds-1", account_jwt: "acc.jwt.1", account_pub: "AACC", operator_jwt: "op.jwt",
  sys_account_jwt: "sys.jwt", sys_account_pub: "ASYS", hub_leaf_url: "nats-leaf://hub:7422", hub_domain: "hub",
};
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function places(): LeafPlaces {
  const dir = mkdtempSync(join(tmpdir(), "gateway-apply-"));
  dirs.push(dir);
  return { files: leafFiles(dir), listen: "0.0.0.0:4222", monitorPort: 8222 };
}

describe("applying a leaf config", () => {
  it("the first time writes the config, the preload, the creds and applied.json (0600)", () => {
    const p = places();
    expect(applyLeafConfig(p, served)).toEqual({ configured: true, reload: false, credsChanged: true, drift: [] });
    const config = readFileSync(p.files.config, "utf8");
    expect(config).toContain('server_name: "gw-1"');
    expect(config).toContain('domain: "gw-1"');
    expect(config).toContain('http: "127.0.0.1:8222"');
    expect(config).toContain('include "preload.conf"');
    expect(config).toContain('ping_interval: "10s"');
    expect(config).not.toContain("creds-1");
    expect(readFileSync(p.files.preload, "utf8")).toContain('"AACC": "acc.jwt.1"');
    expect(readFileSync(p.files.creds, "utf8")).toBe("creds-1");
    expect(statSync(p.files.creds).mode & 0o777).toBe(0o600);
    expect(readApplied(p)).toMatchObject({ operator_jwt: "op.jwt", hub_domain: "hub" });
  });
  it("an unchanged config changes nothing; a new account token is written and asks for a reload; new creds are written", () => {
    const p = places();
    applyLeafConfig(p, served);
    expect(applyLeafConfig(p, served)).toEqual({ configured: false, reload: false, credsChanged: false, drift: [] });
    expect(applyLeafConfig(p, { ...served, account_jwt: "acc.jwt.2", creds: "creds-2" })).toEqual({ configured: false, reload: true, credsChanged: true, drift: [] });
    expect(readFileSync(p.files.preload, "utf8")).toContain('"AACC": "acc.jwt.2"');
    expect(readFileSync(p.files.creds, "utf8")).toBe("creds-2");
  });
  it("a changed hub identity is reported, not applied; tokens of another account are not preloaded", () => {
    const p = places();
    applyLeafConfig(p, served);
    const before = readFileSync(p.files.config, "utf8");
    expect(applyLeafConfig(p, { ...served, operator_jwt: "op.jwt.2", hub_leaf_url: "tls://elsewhere:7422", hub_domain: "hub2" }).drift).toEqual([
      "operator_jwt", "hub_leaf_url", "hub_domain",
    ]);
    expect(readFileSync(p.files.config, "utf8")).toBe(before);
    expect(readApplied(p)?.hub_domain).toBe("hub");
    const moved = applyLeafConfig(p, { ...served, account_pub: "AOTHER", account_jwt: "other.jwt" });
    expect(moved).toMatchObject({ reload: false, drift: ["account_pub"] });
    expect(readFileSync(p.files.preload, "utf8")).not.toContain("AOTHER");
  });
  it("without applied.json (reconfigure) everything is written again from what is served", () => {
    const p = places();
    applyLeafConfig(p, served);
    rmSync(p.files.applied);
    expect(readApplied(p)).toBeUndefined();
    expect(applyLeafConfig(p, { ...served, hub_domain: "hub2" })).toMatchObject({ configured: true, drift: [] });
    expect(readApplied(p)?.hub_domain).toBe("hub2");
  });
});
