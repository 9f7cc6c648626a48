// The fields the console's host list asks for (shared with bench/overlay-hosts-page.bench.ts, which times
// that page): never `config_yaml` (it embeds the host key, and carries the CA's whole blocklist) nor
// `private_key`. Pure.
export const HOST_FIELDS = "id,name,network,overlay_ip,groups,active,is_lighthouse,public_endpoint,fingerprint,not_after";
