// Every PocketBase registration (a hook, a route, a middleware, a cron job) is made in main.pb.ts, so one
// file answers "what does the platform bind?". The library files only hold what those handlers call.
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "..");
const REGISTRATION = /^(on[A-Z][A-Za-z]*|routerAdd|routerUse|cronAdd)$/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Calls of a registration global (`onTerminate(...)`) or of the app's hooks (`$app.onRecordCreate()`). */
function registrations(path: string): string[] {
  const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.ES2020, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) && callee.expression.getText(file) === "$app" ? callee.name.text : "";
      if (REGISTRATION.test(name)) found.push(`${relative(ROOT, path)}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1} ${name}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("registrations", () => {
  const files = [...sources(join(ROOT, "pb_hooks_src")), ...sources(join(ROOT, "common"))];

  it("are made in main.pb.ts only", () => {
    const outside = files.filter((path) => !path.endsWith("main.pb.ts")).flatMap(registrations);
    expect(outside).toEqual([]);
  });

  it("are found where they are (the scan is not blind)", () => {
    const main = registrations(join(ROOT, "pb_hooks_src/main.pb.ts")).map((line) => line.split(" ")[1]);
    expect(main).toEqual(expect.arrayContaining(["onBootstrap", "onTerminate", "routerAdd", "routerUse", "cronAdd", "onRecordCreate"]));
  });
});
