// What the browser will dial for the bus, decided before any socket opens: the addresses in effect (spec 8.3,
// resolved by ../bus-address.ts) minus those the page may not open. A page served over HTTPS cannot open a
// plaintext ws:// socket, and the page's Content-Security-Policy admits only the server's addresses; saying
// so beats a connection that silently never comes up. Pure.
import { blockedOnPage, outsidePolicy, policyRefusal, type BusAddresses } from "../bus-address";

export type DialPlan = { kind: "dial"; urls: string[]; skipped: string[] } | { kind: "refused"; message: string };

export function dialPlan(addresses: BusAddresses, pageProtocol: string): DialPlan {
  const plaintext = blockedOnPage(addresses.urls, pageProtocol);
  const unlisted = outsidePolicy(addresses).filter((url) => !plaintext.includes(url));
  const blocked = [...plaintext, ...unlisted];
  const urls = addresses.urls.filter((url) => !blocked.includes(url));
  if (urls.length > 0) return { kind: "dial", urls, skipped: blocked };
  if (plaintext.length === 0) return { kind: "refused", message: policyRefusal(unlisted, addresses.admitted) };
  return {
    kind: "refused",
    message: `This page is served over HTTPS, so the browser refuses the plaintext ${plaintext.join(", ")}. Use wss:// addresses (Settings, bus address on this device, or the server's bus.websocket_urls).`,
  };
}
