// A rotation of the caller's own bus credential, announced to every tab of this console on this origin
// (this one included): a held bus connection then dials again with the new credential instead of staying on
// the one it was opened with. Kept apart from the bus client, so Settings does not load the client.
const CHANNEL = "console.own-bus-credential";

export function announceOwnCredentialRotated(): void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage("rotated");
  channel.close();
}

/** Calls `listener` on every announced rotation; the returned function stops listening. */
export function onOwnCredentialRotated(listener: () => void): () => void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = () => listener();
  return () => channel.close();
}
