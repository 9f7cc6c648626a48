// Every file field is protected (spec 4.1 POST /api/files/token, 7): file URLs answer only with a file
// token, checked against the collection's view rule; an auth token there answers 404.
import type PocketBase from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { useWorld, type Actor } from "../harness/world";

const { platform, world } = useWorld();

// A 1x1 transparent PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const SVG = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>`);

interface Upload {
  collection: string;
  field: string;
  /** Who uploads, and the record it goes on. */
  uploader: Actor;
  record: () => string;
  file: { bytes: Buffer; name: string; type: string };
}

const UPLOADS: Upload[] = [
  { collection: "users", field: "avatar", uploader: "owner", record: () => world.users.owner.id, file: { bytes: PNG, name: "me.png", type: "image/png" } },
  { collection: "thing_types", field: "icon", uploader: "owner", record: () => world.a.thing_types.id, file: { bytes: SVG, name: "icon.svg", type: "image/svg+xml" } },
  { collection: "locations", field: "floor_plan", uploader: "owner", record: () => world.a.locations.id, file: { bytes: PNG, name: "plan.png", type: "image/png" } },
];

async function fileToken(pb: PocketBase): Promise<string> {
  const response = await fetch(`${platform.url}/api/files/token`, { method: "POST", headers: { Authorization: pb.authStore.token } });
  expect(response.status).toBe(200);
  const { token } = (await response.json()) as { token: string };
  expect(token).toEqual(expect.any(String));
  return token;
}

async function download(url: string): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(url);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe.each(UPLOADS)("$collection.$field", (upload) => {
  let fileUrl: string;

  beforeAll(async () => {
    const pb = await world.client(upload.uploader);
    const form = new FormData();
    form.append(upload.field, new Blob([new Uint8Array(upload.file.bytes)], { type: upload.file.type }), upload.file.name);
    const record = await pb.collection(upload.collection).update(upload.record(), form);
    const stored = record[upload.field] as string;
    expect(stored).toMatch(/\.(png|svg)$/);
    fileUrl = `${platform.url}/api/files/${upload.collection}/${record.id}/${encodeURIComponent(stored)}`;
  });

  it("is protected in the schema", async () => {
    const collection = await world.su.collections.getOne(upload.collection);
    const field = collection.fields.find((f) => f.name === upload.field);
    expect(field).toMatchObject({ type: "file", protected: true });
  });

  it("answers 404 without a token and with an auth token", async () => {
    const owner = await world.client("owner");
    expect((await download(fileUrl)).status).toBe(404);
    expect((await download(`${fileUrl}?token=${owner.authStore.token}`)).status).toBe(404);
    expect((await download(`${fileUrl}?token=${world.su.authStore.token}`)).status).toBe(404);
    expect((await download(`${fileUrl}?token=not-a-token`)).status).toBe(404);
  });

  it("serves the file with the uploader's file token", async () => {
    const answer = await download(`${fileUrl}?token=${await fileToken(await world.client(upload.uploader))}`);
    expect(answer.status).toBe(200);
    expect(answer.bytes.equals(upload.file.bytes)).toBe(true);
  });

  it("serves the file to another member of the organization with their file token", async () => {
    const answer = await download(`${fileUrl}?token=${await fileToken(await world.client("viewer"))}`);
    expect(answer.status).toBe(200);
  });

  it("answers 404 to another organization's owner and to an outsider, each with its own file token", async () => {
    for (const actor of ["foreign_owner", "outsider"] as const) {
      const answer = await download(`${fileUrl}?token=${await fileToken(await world.client(actor))}`);
      expect(answer.status, actor).toBe(404);
      expect(answer.bytes.equals(upload.file.bytes), actor).toBe(false);
    }
  });
});

describe("a Platform Operator without membership", () => {
  it("cannot fetch tenant inventory files with its file token", async () => {
    const token = await fileToken(await world.client("operator"));
    for (const upload of UPLOADS.filter((u) => u.collection !== "users")) {
      const record = await world.su.collection(upload.collection).getOne(upload.record());
      const url = `${platform.url}/api/files/${upload.collection}/${record.id}/${record[upload.field] as string}?token=${token}`;
      expect((await download(url)).status, upload.collection).toBe(404);
    }
  });
});
