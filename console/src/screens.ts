// Each screen is its own chunk, loaded when first opened: the sign-in page carries none of them.
import type { Component } from "svelte";
import type { Identity, Screen } from "./capabilities";

export type ScreenComponent = Component<{ identity: Identity; screen: Screen }>;

export const SCREEN_MODULES: Readonly<Record<Screen, () => Promise<{ default: ScreenComponent }>>> = {
  visualizer: () => import("./screens/Visualizer.svelte"),
  live: () => import("./screens/Live.svelte"),
  fleet: () => import("./screens/FleetHealth.svelte"),
  things: () => import("./screens/Things.svelte"),
  locations: () => import("./screens/Locations.svelte"),
  types: () => import("./screens/Types.svelte"),
  overlay: () => import("./screens/Overlay.svelte"),
  members: () => import("./screens/Members.svelte"),
  invitations: () => import("./screens/Invitations.svelte"),
  activity: () => import("./screens/Activity.svelte"),
  bus: () => import("./screens/Bus.svelte"),
  streams: () => import("./screens/Streams.svelte"),
  organizations: () => import("./screens/Organizations.svelte"),
  audit: () => import("./screens/Audit.svelte"),
  settings: () => import("./screens/Settings.svelte"),
};
