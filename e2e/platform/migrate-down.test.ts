// `migrate down` through every platform migration, on a database with data: it leaves what the stock
// binary creates (no platform collection, table or trigger; the users collection with its own fields,
// rules and indexes), and `migrate up` afterwards builds the platform again.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { launch } from "../harness/platform";
import { BIN, REPO_ROOT, run } from "../harness/process";
import { sqlite } from "../harness/sqlite";

const scratch = mkdtempSync(join(tmpdir(), "platform-migrate-down-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const PLATFORM_MIGRATIONS = readdirSync(join(REPO_ROOT, "pb_migrations")).filter((f) => f.endsWith(".js")).sort();

interface Schema {
  objects: string[];
  collections: string[];
  users: { listRule: string | null; viewRule: string | null; createRule: string | null; updateRule: string | null; deleteRule: string | null; indexes: string[]; fields: Record<string, unknown>[]; options: Record<string, unknown> };
}

function schemaOf(dataDir: string): Schema {
  const query = <T>(sql: string): T[] => {
    const out = sqlite(dataDir, sql, { json: true });
    return out ? (JSON.parse(out) as T[]) : [];
  };
  const [users] = query<Record<string, string | null>>(
    "SELECT listRule, viewRule, createRule, updateRule, deleteRule, indexes, fields, options FROM _collections WHERE name = 'users'",
  );
  const options = JSON.parse(users.options!) as Record<string, unknown>;
  // Each database draws its own token secrets.
  for (const value of Object.values(options)) if (value && typeof value === "object") delete (value as { secret?: string }).secret;
  return {
    objects: query<{ o: string }>("SELECT type || ' ' || name AS o FROM sqlite_master WHERE name NOT LIKE 'sqlite%' ORDER BY o").map((r) => r.o),
    collections: query<{ name: string }>("SELECT name FROM _collections ORDER BY name").map((r) => r.name),
    users: {
      listRule: users.listRule,
      viewRule: users.viewRule,
      createRule: users.createRule,
      updateRule: users.updateRule,
      deleteRule: users.deleteRule,
      indexes: JSON.parse(users.indexes!) as string[],
      fields: JSON.parse(users.fields!) as Record<string, unknown>[],
      options,
    },
  };
}

describe("migrate down", () => {
  it("reverts every platform migration to the stock schema, and migrate up works again", async () => {
    const stockDir = join(scratch, "stock");
    const none = join(scratch, "none");
    const stock = await run(BIN.pocketbase, ["migrate", "up", "--dir", stockDir, "--hooksDir", none, "--migrationsDir", none]);
    expect(stock.code, stock.stderr).toBe(0);

    const dataDir = join(scratch, "platform");
    const cli = (args: string[], input?: string) => launch(args, { ...process.env, PB_DATA_DIR: dataDir }, scratch, input);
    expect((await cli(["migrate", "up"])).code).toBe(0);
    const bootstrapped = await cli(["bootstrap", "--email", "op@example.test", "--password", "operator-password-1"]);
    expect(bootstrapped.code, bootstrapped.stderr).toBe(0);

    const down = await cli(["migrate", "down", String(PLATFORM_MIGRATIONS.length)], "y\n");
    expect(down.code, down.stdout + down.stderr).toBe(0);
    for (const file of PLATFORM_MIGRATIONS) expect(down.stdout).toContain(`Reverted ${file}`);

    const reverted = schemaOf(dataDir);
    const expected = schemaOf(stockDir);
    expect(reverted.collections).toEqual(expected.collections);
    expect(reverted.objects).toEqual(expected.objects);
    // A file field the platform protected stays protected: a rollback does not open files to everyone.
    const avatar = reverted.users.fields.find((f) => f.name === "avatar");
    expect(avatar?.protected).toBe(true);
    expect(reverted.users).toEqual({
      ...expected.users,
      fields: expected.users.fields.map((f) => (f.name === "avatar" ? { ...f, protected: true } : f)),
    });

    expect((await cli(["migrate", "up"])).code).toBe(0);
    const again = await cli(["bootstrap", "--email", "op2@example.test", "--password", "operator-password-2"]);
    expect(again.code, again.stderr).toBe(0);
  });
});
