// The ceiling of an organization's account claim (decision 083), shared by the hooks that refuse a write
// past it and the console's fleet health that shows a claim's size against it.

/**
 * The longest account claim the bus takes: the claim travels as the payload of a $SYS.REQ.CLAIMS.UPDATE
 * request, which nats-server refuses past its `max_payload` (1 MiB by default; the exported hub config keeps
 * the default). Each revocation entry adds ~93 bytes, so ~11,000 entries reach it.
 */
export const MAX_ACCOUNT_JWT_BYTES = 1_048_576;

/** Past this share of the ceiling the claim is worth a look (the PlatformAccountClaimLarge alert's threshold). */
export const ACCOUNT_CLAIM_WARNING_SHARE = 0.5;
