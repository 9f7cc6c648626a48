import { describe, expect, it } from "vitest";
import { keyStock, STOCK_CAP, type StockStore } from "./key-stock";

/** $app.store()'s semantics for one process: values by key, setFunc as one step. */
function memoryStore(): StockStore & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return {
    values,
    get: (key) => values.get(key),
    setFunc: (key, update) => void values.set(key, update(values.get(key))),
  };
}

function counterMaker() {
  let next = 0;
  const made: number[] = [];
  return {
    made,
    make: (count: number) => Array.from({ length: count }, () => {
      made.push(++next);
      return { id: next };
    }),
  };
}

describe("keyStock", () => {
  it("hands out what was added, oldest first, then makes its own once empty", () => {
    const store = memoryStore();
    const maker = counterMaker();
    const stock = keyStock("test", maker.make, () => store);
    stock.addOne();
    stock.addOne();
    expect(maker.made).toEqual([1, 2]);
    expect(stock.take()).toEqual({ id: 1 });
    expect(stock.take()).toEqual({ id: 2 });
    expect(stock.take()).toEqual({ id: 3 });
    expect(maker.made).toEqual([1, 2, 3]);
  });

  it("never hands out a key pair twice, across stocks of the same name sharing the store (VMs)", () => {
    const store = memoryStore();
    const maker = counterMaker();
    const a = keyStock("shared", maker.make, () => store);
    const b = keyStock("shared", maker.make, () => store);
    for (let i = 0; i < 10; i++) (i % 2 ? a : b).addOne();
    const taken = Array.from({ length: 15 }, (_, i) => ((i % 3 ? a : b).take() as { id: number }).id);
    expect(new Set(taken).size).toBe(15);
    expect(taken.slice(0, 10).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("keeps kinds apart", () => {
    const store = memoryStore();
    const users = keyStock("user", counterMaker().make, () => store);
    const hosts = keyStock("host", () => [{ id: -1 }], () => store);
    users.addOne();
    expect(hosts.take()).toEqual({ id: -1 });
    expect(users.take()).toEqual({ id: 1 });
  });

  it("keeps at most STOCK_CAP and makes nothing past it", () => {
    const store = memoryStore();
    const maker = counterMaker();
    const stock = keyStock("capped", maker.make, () => store);
    for (let i = 0; i < STOCK_CAP + 5; i++) stock.addOne();
    expect(maker.made).toHaveLength(STOCK_CAP);
    expect(JSON.parse(store.values.get("platform.keyStock.capped") as string)).toHaveLength(STOCK_CAP);
  });
});
