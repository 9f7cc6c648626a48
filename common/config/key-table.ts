// A configuration's key table: every leaf of a nested config type with its type, default and meaning, and
// the prefix of its environment variables. The control plane (keys.ts, PLATFORM_*) and the edge agent
// (agent/src/config/keys.ts, AGENT_*) each define one; the readers and the loader take it as an argument,
// so both read files and environments by the same rules. Pure: runs in goja and in Node.

export type ConfigValue = string | number | boolean | string[];
export type KeyType = "string" | "int" | "bool" | "string-list";

/** Dotted paths of a config type's leaves, e.g. "bus.default_limits.max_payload". */
export type Paths<T> = {
  [K in keyof T & string]: T[K] extends ConfigValue ? K : `${K}.${Paths<T[K]>}`;
}[keyof T & string];

type ValueAt<T, P extends string> = P extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? ValueAt<T[Head], Rest>
    : never
  : P extends keyof T
    ? T[P]
    : never;

type TypeOf<V> = V extends string[]
  ? "string-list"
  : V extends string
    ? "string"
    : V extends number
      ? "int"
      : V extends boolean
        ? "bool"
        : never;

export interface KeyInfo {
  type: KeyType;
  default: ConfigValue;
  meaning: string;
  /** Never echoed in error messages. */
  secret?: true;
}

interface KeySpec<V extends ConfigValue> extends KeyInfo {
  type: TypeOf<V>;
  default: V;
}

/** The specs of a config type's leaves, typed so the compiler refuses a missing key, an extra key or a wrong type. */
export type KeySpecs<T> = { readonly [K in Paths<T>]: ValueAt<T, K> extends infer V extends ConfigValue ? KeySpec<V> : never };

export interface KeyTable<K extends string> {
  /** Every key, in the table's order. */
  readonly keys: readonly K[];
  /** Every proper prefix of a key, e.g. `audit` and `audit.retention`: the places a mapping may appear. */
  readonly sections: ReadonlySet<string>;
  info(key: K): KeyInfo;
  has(name: string): name is K;
  /** `bus.server_url` → `<PREFIX>_BUS_SERVER_URL`. */
  envName(key: K): string;
}

export function keyTable<T>(envPrefix: string, specs: KeySpecs<T>): KeyTable<Paths<T>> {
  type K = Paths<T>;
  const keys = Object.keys(specs) as K[];
  const sections = new Set(
    keys.flatMap((key) => {
      const parts = key.split(".");
      return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join("."));
    }),
  );
  return {
    keys,
    sections,
    info: (key) => specs[key],
    has: (name): name is K => Object.prototype.hasOwnProperty.call(specs, name),
    envName: (key) => `${envPrefix}_${key.replace(/\./g, "_").toUpperCase()}`,
  };
}
