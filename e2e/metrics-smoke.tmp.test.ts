import { it } from "vitest";
import { startPlatform } from "./harness/platform";
it("smoke", async () => {
  const p = await startPlatform();
  try {
    await fetch(`${p.url}/api/health`);
    await fetch(`${p.url}/api/collections/things/records/abc`);
    const r = await fetch(`${p.url}/metrics`);
    console.log(r.status, r.headers.get("content-type"), await r.text());
    console.log(p.log().slice(-2000));
  } finally { await p.stop(); }
});
