// Mounts the console once branding.json and the stored session are settled: until then #app is empty,
// so nothing unbranded or signed-out ever paints (theme.css already blocks the first paint).
import "./console.css";
import { mount } from "svelte";
import App from "./App.svelte";
import { loadBranding } from "./branding";
import { restoreSession } from "./session.svelte";

const [branding] = await Promise.all([loadBranding(), restoreSession().catch(() => undefined)]);
document.title = branding.productName;
const target = document.getElementById("app");
if (target) mount(App, { target, props: { branding } });
