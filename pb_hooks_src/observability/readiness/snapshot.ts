/// <reference path="../../../build/types/types.d.ts" />
// Where the readiness prober's results live between probes: $app.store(), the one map every hook VM of
// the process shares. GET /api/ready and GET /metrics read from here and never run a check themselves.
import { sharedStore as store } from "../../lib/app-store";
import type { CheckResult } from "../../../common/readiness/report";
import type { CertificateScan } from "./certificates";

/** The last completed probe. */
export interface ReadinessSnapshot {
  results: CheckResult[];
  /** Unix milliseconds when the probe completed: `checked` of the body, platform_check_timestamp_seconds. */
  probedAtMs: number;
  /** Duration of the whole probe (bounded by readiness.timeout). */
  tookMs: number;
}

const SNAPSHOT_KEY = "platform.readiness.snapshot";
const STARTED_KEY = "platform.readiness.started";
const CERTIFICATES_KEY = "platform.readiness.certificates";

// Snapshots are kept as JSON text: a JS object put in the store becomes a Go map, which would come back
// with its keys in random order and its numbers retyped.
export function readSnapshot(): ReadinessSnapshot | undefined {
  const text = readSnapshotText();
  return text ? (JSON.parse(text) as ReadinessSnapshot) : undefined;
}

/** The last snapshot as stored (JSON text): the same text until the next probe completes. */
export function readSnapshotText(): string | undefined {
  return (store().get(SNAPSHOT_KEY) as string | undefined) || undefined;
}

export function writeSnapshot(snapshot: ReadinessSnapshot): void {
  store().set(SNAPSHOT_KEY, JSON.stringify(snapshot));
}

/** Unix milliseconds when this process began serving (the body's uptime); recorded once, at bootstrap. */
export function markStarted(): void {
  store().getOrSet(STARTED_KEY, () => Date.now());
}

// Kept once read: the start never changes after markStarted, and /api/ready reads it on every request.
let started: number | undefined;

export function startedAtMs(): number {
  started ??= store().get(STARTED_KEY) as number | undefined;
  return started ?? Date.now();
}

/**
 * The certificate scan of the last overlay_cert_expiry check, which the certificate metrics reuse (spec
 * 4.3: one scan for both). Undefined when the scan failed: the certificate series are then absent.
 */
export function readCertificateScan(): CertificateScan | undefined {
  const text = store().get(CERTIFICATES_KEY) as string | undefined;
  return text ? (JSON.parse(text) as CertificateScan) : undefined;
}

export function writeCertificateScan(scan: CertificateScan | undefined): void {
  if (scan) store().set(CERTIFICATES_KEY, JSON.stringify(scan));
  else store().remove(CERTIFICATES_KEY);
}
