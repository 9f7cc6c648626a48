// Each screen is its own chunk, loaded when first opened: the sign-in page carries none of them.
import type { Component } from "svelte";
import type { Identity, Screen } from "./capabilities";

export type ScreenComponent = Component<{ identity: Identity; screen: Screen }>;

const placeholder = () => import("./screens/Placeholder.svelte");

export const SCREEN_MODULES: Readonly<Record<Screen, () => Promise<{ default: ScreenComponent }>>> = {
  visualizer: () => import("./screens/Visualizer.svelte"),
  things: () => import("./screens/Things.svelte"),
  locations: placeholder,
  types: placeholder,
  members: () => import("./screens/Members.svelte"),
  invitations: () => import("./screens/Invitations.svelte"),
  activity: () => import("./screens/Activity.svelte"),
  organizations: () => import("./screens/Organizations.svelte"),
  audit: placeholder,
  settings: () => import("./screens/Settings.svelte"),
};
