import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: { name: "unit", include: ["pb_hooks_src/**/*.test.ts", "agent/**/*.test.ts", "sidecar/**/*.test.ts"], sequence: { groupOrder: 0 } },
      },
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          // Each file starts its own real PocketBase; two cores run two files at a time.
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
