import { afterEach, describe, expect, it, vi } from "vitest";
import { parseYaml } from "../../common/config/yaml";

// Node cannot require a .ts file; in the bundle this module requires ./yaml on first use.
vi.mock("./yaml-on-demand", () => ({ parseYamlOnDemand: parseYaml }));

/**
 * Stands in for PocketBase's goja globals: $os reads files as byte arrays and throws Go errors, $app.store()
 * is one map per process (`store`).
 */
function stubGoja(files: Record<string, string>, failures: Record<string, string> = {}, store = new Map<string, unknown>()) {
  const readFile = vi.fn((path: string): number[] => {
    if (path in failures) throw new Error(failures[path]);
    if (!(path in files)) throw new Error(`open ${path}: no such file or directory`);
    return Array.from(Buffer.from(files[path], "utf8"));
  });
  vi.stubGlobal("$os", { args: ["/usr/local/bin/pocketbase", "serve", "--bus"], getwd: () => "/srv/app", readFile });
  vi.stubGlobal("toString", (bytes: number[]) => Buffer.from(bytes).toString("utf8"));
  vi.stubGlobal("$app", { store: () => ({ get: (key: string) => store.get(key), set: (key: string, value: unknown) => store.set(key, value) }) });
  return readFile;
}

/** A fresh module instance, as a new VM would have. */
async function freshRuntime() {
  vi.resetModules();
  return import("./runtime");
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe("currentConfig", () => {
  it("reads os.Args, the working directory, process.env and files through the goja globals", async () => {
    stubGoja({ "/srv/app/config.yaml": "branding:\n  dir: /srv/brand/é\n" });
    vi.stubEnv("PLATFORM_BUS_PERSIST_DOMAIN", "edge");
    const config = (await freshRuntime()).currentConfig();
    expect(config.bus.embedded).toBe(true);
    expect(config.bus.persist_domain).toBe("edge");
    expect(config.branding.dir).toBe("/srv/brand/é");
  });

  it("loads once per module instance", async () => {
    const readFile = stubGoja({});
    const { currentConfig } = await freshRuntime();
    const first = currentConfig();
    expect(currentConfig()).toBe(first);
    // ./config.yaml, then /etc/iot-control-plane/config.yaml, both absent; nothing read the second time.
    expect(readFile.mock.calls.map(([path]) => path)).toEqual(["/srv/app/config.yaml", "/etc/iot-control-plane/config.yaml"]);
  });

  it("refuses a file it cannot read instead of treating it as absent", async () => {
    stubGoja({}, { "/srv/app/config.yaml": "open /srv/app/config.yaml: permission denied" });
    const { currentConfig } = await freshRuntime();
    // The same module instance runtime.ts sees after the reset.
    const { ConfigError } = await import("../../common/config/errors");
    expect(currentConfig).toThrow(ConfigError);
    expect(currentConfig).toThrow("cannot read /srv/app/config.yaml: open /srv/app/config.yaml: permission denied");
  });

  it("takes the configuration the loader published, so no other VM reads or parses the file", async () => {
    const store = new Map<string, unknown>();
    const loaderRead = stubGoja({ "/srv/app/config.yaml": "bus:\n  persist_domain: site-a\n" }, {}, store);
    const loader = await freshRuntime();
    loader.publishConfig();
    expect(loaderRead).toHaveBeenCalledTimes(1);

    const handlerRead = stubGoja({ "/srv/app/config.yaml": "bus:\n  persist_domain: changed-since\n" }, {}, store);
    const handler = await freshRuntime();
    expect(handler.currentConfig()).toEqual(loader.currentConfig());
    expect(handler.currentConfig().bus.persist_domain).toBe("site-a");
    expect(handlerRead).not.toHaveBeenCalled();
  });

  it("loads from its sources in a migration's VM, which has no $app", async () => {
    stubGoja({ "/srv/app/config.yaml": "bus:\n  persist_domain: site-a\n" });
    vi.stubGlobal("$app", undefined);
    expect((await freshRuntime()).currentConfig().bus.persist_domain).toBe("site-a");
  });
});
