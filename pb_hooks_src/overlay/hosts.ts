// overlay_hosts issuance for every writer (spec 2.1 overlay rows; docs/overlay.md "Hosts and configs"): placement
// checks, an X25519 key pair from the sidecar, a host certificate signed with the organization's CA (or
// the one POST /api/org/things signed before its transaction, lib/presigned.ts), and config_yaml.
// Runs in the write's transaction (overlay/effects.ts), before the row is written.
import { sha256 } from "@noble/hashes/sha2.js";
import { findFirst, findRecord, organizationExists } from "../lib/collections";
import { newRecordId, presigned } from "../lib/presigned";
import { sidecarCall } from "../lib/sidecar";
import type { CollectionNames } from "../schema/names";
import type { Ed25519SignResponse, X25519Response } from "../../common/sidecar/protocol";
import { appendRevoked, notAfterSeconds, type Revoked } from "./revocations";
import { caOf, trustedCaPem } from "./ca";
import {
  BANNERS,
  CertificateFormatError,
  base64Decode,
  base64Encode,
  bytesToHex,
  certificateBytes,
  certificateFromPem,
  encodeDetails,
  fingerprint,
  keyFromPem,
  pemEncode,
  x25519PrivateKeyPem,
  type Certificate,
} from "./cert";
import { hostConfigYaml, type Lighthouse } from "../../common/overlay/host-config";
import { lighthousesSql } from "./lighthouses";
import { HostError, checkPublicEndpoint, hostDetails, hostGroups, hostNetwork } from "./host-details";
import { sealSecret, unsealSecret } from "../lib/secrets";

const sha256hex = (data: Uint8Array): string => bytesToHex(sha256(data));

/** The certificate fields of a host row, as they are stored. */
interface IssuedCertificate {
  cert: string;
  /** Sealed with overlay.encryption_key when set. */
  private_key: string;
  fingerprint: string;
  not_after: string;
}

/** Certificates POST /api/org/things signed before its transaction (lib/presigned.ts). */
export const presignedHosts = presigned<IssuedCertificate>("overlay.host");

/** Fields a certificate carries: changing one re-signs. */
const CERTIFICATE_FIELDS = ["name", "overlay_ip", "groups", "network"];

export interface Placement {
  network: core.Record;
  /** The certificate's network, "10.42.0.5/16". */
  hostNetwork: string;
}

/**
 * The network must be the organization's, the IP inside its CIDR and free in it. Throws HostError.
 */
export function placeHost(tx: CoreApp, n: CollectionNames, organizationId: string, networkId: string, overlayIp: string, selfId = ""): Placement {
  const network = networkId ? findRecord(tx, n.overlay_networks, networkId) : undefined;
  if (!network || network.getString("organization") !== organizationId) throw new HostError("network does not name an overlay network of the organization");
  const placed = hostNetwork(network.getString("cidr"), overlayIp);
  const taken = findFirst(tx, n.overlay_hosts, "network = {:network} && overlay_ip = {:ip} && id != {:self}", {
    network: network.id,
    ip: overlayIp,
    self: selfId,
  });
  if (taken) throw new HostError(`overlay_ip ${overlayIp} is already used in the network`);
  return { network, hostNetwork: placed };
}

/**
 * The `before` effect of an overlay_hosts create or update (`previous`: the row as committed, for an
 * update). HostError becomes a 400.
 */
export function prepareHost(tx: CoreApp, n: CollectionNames, host: core.Record, action: "create" | "update", previous: core.Record | undefined, now = new Date()): void {
  try {
    const original = action === "update" ? previous ?? host.original() : undefined;
    const activeChanged = !!original && original.getBool("active") !== host.getBool("active");
    // Reactivation re-signs: the certificate blocked while inactive stays blocked (docs/overlay.md "Deactivation").
    const reactivated = activeChanged && host.getBool("active");
    if (!original || original.getString("public_endpoint") !== host.getString("public_endpoint")) checkPublicEndpoint(host.getString("public_endpoint"));
    const identityChanged = !!original && CERTIFICATE_FIELDS.some((f) => toString(original.get(f)) !== toString(host.get(f)));
    const changed = !original || reactivated || !host.getString("cert") || identityChanged;
    const ca = caOf(tx, n, host.getString("organization"));
    if (!ca || !ca.getString("cert")) throw new HostError("no overlay certificate authority for the organization");
    if (changed) signHost(tx, n, host, ca, now);
    // The CA's list holds every certificate a deactivation took out (kept until it expires, so a reactivation's new
    // certificate leaves the old one blocked), the current one of every inactive host, and the one an
    // active host held before it was re-signed as another name, address, network or groups: that one would
    // go on vouching for what the host no longer is, an address the next host may be given. A renewal
    // (a blank `cert`) and a rotation's re-sign keep the host's identity and block nothing.
    const superseded = identityChanged && !activeChanged && host.getBool("active");
    revoke(
      tx,
      ca,
      now,
      ...(activeChanged || superseded ? [revokedCertificate(original)] : []),
      ...(host.getBool("active") ? [] : [revokedCertificate(host)]),
    );
    host.set("config_yaml", configOf(tx, n, host, ca));
  } catch (err) {
    if (err instanceof HostError) throw new BadRequestError(err.message);
    throw err;
  }
}

function signHost(tx: CoreApp, n: CollectionNames, host: core.Record, ca: core.Record, now: Date): void {
  const placement = placeHost(tx, n, host.getString("organization"), host.getString("network"), host.getString("overlay_ip"), host.id);
  const raw = toString(host.get("groups"));
  const subject: HostSubject = { name: host.getString("name"), hostNetwork: placement.hostNetwork, groups: hostGroups(raw ? JSON.parse(raw) : null) };
  // A certificate the creating route signed before the transaction serves if it was signed from exactly
  // what is committed now (lib/presigned.ts); otherwise it is signed here.
  host.load(presignedHosts.take(host.id, signingBasis(ca, subject)) ?? issueCertificate(ca, subject, now));
}

/** What a host certificate says of its host, besides its key and validity. */
interface HostSubject {
  name: string;
  /** From hostNetwork(): "10.42.0.5/16". */
  hostNetwork: string;
  groups: string[];
}

/** A host certificate signed with the CA's issuing key for a new X25519 key pair; nothing is saved. */
function issueCertificate(ca: core.Record, subject: HostSubject, now: Date): IssuedCertificate {
  const caCert = caCertificate(ca);
  const [pair] = sidecarCall<X25519Response>("/v1/x25519", { count: 1 });
  const details = hostDetails({
    name: subject.name,
    network: subject.hostNetwork,
    groups: subject.groups,
    now,
    caNotAfter: caCert.details.notAfter,
    caFingerprint: ca.getString("fingerprint"),
    publicKey: base64Decode(pair.public),
  });
  const caKey = keyFromPem(unsealSecret("overlay", ca.getString("private_key"), "the overlay CA key"), BANNERS.ed25519PrivateKey);
  const { signature } = sidecarCall<Ed25519SignResponse>("/v1/ed25519/sign", {
    seed: base64Encode(caKey.subarray(0, 32)),
    message: base64Encode(encodeDetails(details)),
  });
  const bytes = certificateBytes(details, base64Decode(signature));
  return {
    cert: pemEncode(BANNERS.certificate, bytes),
    private_key: sealSecret("overlay", x25519PrivateKeyPem(base64Decode(pair.private))),
    fingerprint: fingerprint(bytes, sha256hex),
    not_after: new Date(details.notAfter * 1000).toISOString().replace("T", " "),
  };
}

/** The CA's own certificate; one that does not decode (a hand edit) refuses the host with a plain message. */
function caCertificate(ca: core.Record): Certificate {
  try {
    return certificateFromPem(ca.getString("cert"));
  } catch (err) {
    if (err instanceof CertificateFormatError) throw new HostError(`the organization's overlay CA certificate cannot be read (${err.message})`);
    throw err;
  }
}

/**
 * Before the transaction of a write that will create a host in the network: signs its certificate and
 * keeps it for the host's hook (lib/presigned.ts). Returns the id the host must be created with,
 * or undefined when nothing was signed: anything missing or refused is left to the hook, which refuses it
 * inside the transaction as it does for every writer.
 */
export function presignHost(app: CoreApp, n: CollectionNames, organizationId: string, networkId: string, overlayIp: string, name: string, now = new Date()): string | undefined {
  try {
    const ca = caOf(app, n, organizationId);
    if (!ca || !ca.getString("cert")) return undefined;
    const subject: HostSubject = { name, hostNetwork: placeHost(app, n, organizationId, networkId, overlayIp).hostNetwork, groups: [] };
    const hostId = newRecordId();
    presignedHosts.keep(hostId, signingBasis(ca, subject), issueCertificate(ca, subject, now));
    return hostId;
  } catch {
    return undefined;
  }
}

/** Everything a certificate is signed from, as one text: equal texts sign equal certificates (but for key and time). */
function signingBasis(ca: core.Record, subject: HostSubject): string {
  return JSON.stringify([ca.id, ca.getString("cert"), ca.getString("private_key"), ca.getString("fingerprint"), subject.name, subject.hostNetwork, subject.groups]);
}

function configOf(tx: CoreApp, n: CollectionNames, host: core.Record, ca: core.Record): string {
  const lighthouses = arrayOf(new DynamicModel({ overlayIp: "", publicEndpoint: "" })) as Lighthouse[];
  tx.db().newQuery(lighthousesSql(n.overlay_hosts)).bind({ network: host.getString("network"), self: host.id }).all(lighthouses);
  return hostConfigYaml({
    caPem: trustedCaPem(ca),
    certPem: host.getString("cert"),
    keyPem: unsealSecret("overlay", host.getString("private_key"), "the overlay host key"),
    isLighthouse: host.getBool("is_lighthouse"),
    lighthouses,
  });
}

/**
 * A deleted host's certificate joins the CA's list, as a deactivation's does: deleting the row does not
 * make the certificate it held invalid. An inactive host's is on the list already; with its organization,
 * the CA goes too.
 */
export function revokeDeletedHost(tx: CoreApp, n: CollectionNames, host: core.Record): void {
  const organization = host.getString("organization");
  const ca = caOf(tx, n, organization);
  if (!ca || !host.getBool("active") || !organizationExists(tx, n, organization)) return;
  revoke(tx, ca, new Date(), revokedCertificate(host));
}

/** The certificate a host row holds, as the CA's list keeps it: its fingerprint and its expiry (docs/overlay.md "Pruning"). */
function revokedCertificate(host: core.Record): Revoked {
  return { fingerprint: host.getString("fingerprint"), notAfter: notAfterSeconds(host.getString("not_after")) };
}

/**
 * Adds certificates to the CA's revoked_fingerprints until they expire: one row, saved in the caller's
 * transaction, which also drops the entries expired by `now`. Never a rewrite of other rows: the configs
 * served read the list (overlay/current-blocklist.ts).
 */
function revoke(tx: CoreApp, ca: core.Record, now: Date, ...certificates: Revoked[]): void {
  const next = appendRevoked(toString(ca.get("revoked_fingerprints")), certificates, Math.floor(now.getTime() / 1000));
  if (!next) return;
  ca.set("revoked_fingerprints", next);
  tx.save(ca);
}
