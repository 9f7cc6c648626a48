// The hooks library: everything main.pb.js's handlers call. Bundled to pb_hooks/lib/platform.js.
export const version = "0.1.0";
