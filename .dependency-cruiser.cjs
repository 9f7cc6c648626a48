// The import rules of the tree, enforced by `make deps` (part of `make test`). The four deployables
// (pb_hooks_src/ with its migrations, sidecar/, agent/, console/) share code only through common/, which
// imports none of them and nothing of Node, so it runs unchanged in goja, Node and the browser. Tests,
// benches and scripts (e2e/, contract-tests/, bench/, scripts/) may import anything. Type-only imports count:
// a cycle closed by a type is still a cycle.
const DEPLOYABLES = "^(pb_hooks_src|sidecar|agent|console)/";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Modules form no cycle; move what both sides need into a module of its own.",
      from: {},
      to: { circular: true },
    },
    {
      name: "deployable-imports-another",
      severity: "error",
      comment: "A deployable imports only its own folder and common/ (docs/decisions/072-common-package-and-import-rules.md).",
      from: { path: DEPLOYABLES },
      to: { path: DEPLOYABLES, pathNot: "^$1/" },
    },
    {
      name: "deployable-imports-tests",
      severity: "error",
      comment: "Shipped code never imports the tests' harnesses, benches or scripts.",
      from: { path: "^(pb_hooks_src|sidecar|agent|console|common)/", pathNot: "\\.test\\.ts$" },
      to: { path: "^(e2e|contract-tests|bench|scripts)/" },
    },
    {
      name: "common-imports-a-deployable",
      severity: "error",
      comment: "common/ is below every deployable: it imports only itself.",
      from: { path: "^common/" },
      to: { path: "^(pb_hooks_src|sidecar|agent|console|e2e|contract-tests|bench|scripts)/" },
    },
    {
      name: "common-imports-node",
      severity: "error",
      comment: "common/ runs in goja and the browser too: no Node module outside its tests.",
      from: { path: "^common/", pathNot: "\\.test\\.ts$" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "common-imports-a-package",
      severity: "error",
      comment: "common/ is pure code; js-yaml is its one package (the config readers).",
      from: { path: "^common/", pathNot: "\\.test\\.ts$" },
      to: { dependencyTypes: ["npm", "npm-dev", "npm-optional", "npm-peer", "npm-no-pkg", "npm-unknown"], pathNot: "node_modules/(js-yaml|@types/js-yaml)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|build|dist)/|^pb_hooks/|^pb_public/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.node.json" },
    enhancedResolveOptions: { extensions: [".ts", ".mjs", ".js", ".svelte", ".d.ts"] },
  },
};
