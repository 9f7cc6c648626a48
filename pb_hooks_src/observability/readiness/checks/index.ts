// The ten checks of the control plane's readiness report (spec 4.3), by name. Exactly these run.
import { bootstrap } from "./bootstrap";
import { busOperator, busReachable, busTrust } from "./bus";
import type { Check } from "./check";
import { database } from "./database";
import { overlayCertExpiry } from "./overlay-cert-expiry";
import { schema } from "./schema";
import { schemaVersion } from "./schema-version";
import { busWebsocketUrls, encryptionAtRest } from "./settings";

export const CHECKS: Readonly<Record<string, Check>> = {
  bootstrap,
  bus_operator: busOperator,
  bus_reachable: busReachable,
  bus_trust: busTrust,
  bus_websocket_urls: busWebsocketUrls,
  database,
  encryption_at_rest: encryptionAtRest,
  overlay_cert_expiry: overlayCertExpiry,
  schema,
  schema_version: schemaVersion,
};

export const CHECK_NAMES: readonly string[] = Object.keys(CHECKS).sort();
