/// <reference path="../../../build/types/types.d.ts" />
// The collectors of one scrape (goja glue; what they compute is in families.ts, database.ts, bus.ts,
// http-families.ts). Each collector either returns its series or fails as a whole; a failing collector's series
// are absent, never zero (spec 4.3 rule 4).
import { embeddedSupervisorPid } from "../../bus/embedded";
import { findOperator, unsealSystemCreds } from "../../bus/operator";
import { serverUrls } from "../../bus/server-port";
import { currentConfig } from "../../config/runtime";
import { firstLineOf } from "../../lib/errors";
import { sidecarCall } from "../../lib/sidecar";
import { collectionNames } from "../../schema/names";
import { VERSION } from "../../version";
import { readCertificateScan, readSnapshot } from "../readiness/snapshot";
import { aliveFromProcStat, busFamilies, parseVarz, VARZ_SUBJECT, type BusVarz } from "./bus";
import { httpTotals } from "./counters";
import { countsQuery, DATABASE_FILES, parseCounts } from "./database";
import { renderFamily, type MetricFamily } from "./exposition";
import { certificateFamilies, collectorErrorsFamily, databaseFamilies, readinessLines, type DatabaseCounts } from "./families";
import { httpFamilies } from "./http-families";
import { lookAtReplication, replicationState } from "../../replication/look";
import { replicationFamilies } from "../../replication/observation";

/** A varz request must not hold a scrape for long: scrapers time out after ~10 s by default. */
const VARZ_TIMEOUT_MS = 2000;

/** What a collector produced: its families, or a failure that platform_collector_errors counts. */
type Collected = { families: MetricFamily[]; failed: boolean };

/** The whole exposition body of one scrape. */
export function scrape(app: CoreApp): string[] {
  const snapshot = readSnapshot();
  const lines = readinessLines(snapshot && { results: snapshot.results, probedAtMs: snapshot.probedAtMs }, VERSION);
  lookAtReplication(app);
  const replication = { families: replicationFamilies(replicationState(app), Date.now()), failed: false };
  const collected = [collectDatabase(app), collectCertificates(), collectEmbeddedBus(app), replication, { families: httpFamilies(httpTotals()), failed: false }];
  const failed = collected.filter((c) => c.failed).length;
  for (const family of [...collected.flatMap((c) => c.families), collectorErrorsFamily(failed)]) lines.push(...renderFamily(family));
  return lines;
}

/** Record counts and the database's size; any failing query or stat fails the whole collector. */
function collectDatabase(app: CoreApp): Collected {
  try {
    const names = collectionNames(currentConfig());
    const row = new DynamicModel({ counts: "" });
    app.db().newQuery(countsQuery(names)).one(row);
    const counts = parseCounts(names, String(row.counts));
    const result: DatabaseCounts = { ...counts, databaseBytes: databaseBytes(app) };
    return { families: databaseFamilies(result), failed: false };
  } catch (err) {
    console.error(`metrics: the database collector failed: ${firstLineOf(err)}`);
    return { families: [], failed: true };
  }
}

/** data.db must exist; its -wal and -shm files exist only while SQLite uses them. */
function databaseBytes(app: CoreApp): number {
  let total = 0;
  DATABASE_FILES.forEach((file, i) => {
    const path = $filepath.join(app.dataDir(), file);
    try {
      total += $os.stat(path).size();
    } catch (err) {
      if (i === 0 || !firstLineOf(err).includes("no such file or directory")) throw err;
    }
  });
  return total;
}

/** The readiness prober's certificate scan; none (failed or not run yet) removes the series, no error (rule 4). */
function collectCertificates(): Collected {
  const scan = readCertificateScan();
  return { families: scan ? certificateFamilies(scan) : [], failed: false };
}

/**
 * Only when this process supervises nats-server (`serve --bus`); with an external bus the series are
 * absent. A child that runs but does not answer varz leaves only platform_bus_embedded_up and counts as a
 * failed collector.
 */
function collectEmbeddedBus(app: CoreApp): Collected {
  const pid = embeddedSupervisorPid(app);
  if (pid === undefined) return { families: [], failed: false };
  if (!supervisorAlive(pid)) return { families: busFamilies(false, undefined), failed: false };
  try {
    return { families: busFamilies(true, requestVarz(app)), failed: false };
  } catch (err) {
    console.error(`metrics: the embedded bus collector failed: ${firstLineOf(err)}`);
    return { families: busFamilies(true, undefined), failed: true };
  }
}

function supervisorAlive(pid: number): boolean {
  try {
    return aliveFromProcStat(toString($os.readFile(`/proc/${pid}/stat`)));
  } catch {
    return false;
  }
}

/** Asks the server, as the system user over the sidecar's bus connection, for its varz. */
function requestVarz(app: CoreApp): BusVarz {
  const operator = findOperator(app);
  if (!operator) throw new Error("no bus operator yet");
  const { reply } = sidecarCall<{ reply: string }>("/v1/nats/request", {
    servers: serverUrls(currentConfig().bus.server_url),
    creds: unsealSystemCreds(operator),
    subject: VARZ_SUBJECT,
    payload: "",
    timeoutMs: VARZ_TIMEOUT_MS,
  }, VARZ_TIMEOUT_MS / 1000 + 1);
  return parseVarz(reply);
}
