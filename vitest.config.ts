import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["pb_hooks_src/**/*.test.ts", "common/**/*.test.ts", "agent/**/*.test.ts", "sidecar/**/*.test.ts", "console/**/*.test.ts", "contract-tests/**/*.test.ts"],
          // Tests beside a format module that run the pinned binaries belong to the e2e project.
          exclude: ["**/*.e2e.test.ts", "**/node_modules/**"],
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts", "pb_hooks_src/**/*.e2e.test.ts"],
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
