// How long the browser waits before each reconnect attempt of an outage: quick at first (a hub restart is
// back in seconds), then every 10 s. Each failed websocket dial costs the tab a little memory that is not
// given back (measured in e2e/console/live.test.ts), so an unattended screen through an hour-long outage
// must dial hundreds of times, not thousands. Pure.

const DELAYS_MS = [1_000, 2_000, 4_000, 8_000];
export const LONGEST_WAIT_MS = 10_000;

/** The wait before attempt `attempt` (0 for the first after the connection dropped). */
export function reconnectDelay(attempt: number): number {
  return DELAYS_MS[attempt] ?? LONGEST_WAIT_MS;
}
