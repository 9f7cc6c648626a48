import { describe, expect, it } from "vitest";
import { hubConnections, siteState } from "./sites";

describe("site states from the hub's CONNZ", () => {
  const answers = [
    { data: { connections: [{ kind: "Leafnode", authorized_user: "UGATEWAY" }, { kind: "Client", authorized_user: "UDEVICE" }, { kind: "Client" }] } },
    { error: { code: 500 } },
    { data: { connections: [{ kind: "Leafnode", authorized_user: "UOTHERNODE" }] } },
  ];
  const seen = hubConnections(answers);

  it("a leaf uplink is attached, a plain client connection direct, nothing at the hub islanded", () => {
    expect(siteState(seen, "UGATEWAY")).toBe("attached");
    expect(siteState(seen, "UOTHERNODE")).toBe("attached");
    expect(siteState(seen, "UDEVICE")).toBe("direct");
    expect(siteState(seen, "UGONE")).toBe("islanded");
  });

  it("could not look (no useful answer, no readable key) is unknown, never islanded", () => {
    expect(hubConnections([])).toBeNull();
    expect(hubConnections([{ error: "timeout" }])).toBeNull();
    expect(siteState(null, "UGATEWAY")).toBe("unknown");
    expect(siteState(seen, null)).toBe("unknown");
    expect(siteState(seen, "")).toBe("unknown");
  });
});
