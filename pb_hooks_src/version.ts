// The build version (spec 9.1): the readiness body's `version` and platform_build_info{version}.
// scripts/build-hooks.mjs defines it from package.json; tests under Node see the fallback.
declare const __PLATFORM_VERSION__: string | undefined;

export const VERSION: string = typeof __PLATFORM_VERSION__ === "string" ? __PLATFORM_VERSION__ : "0.0.0-dev";
