// The operator's texts and logo (GET /branding/branding.json, spec 4.1). theme.css is linked by
// index.html; here only the texts, each field falling back on its own to the embedded default.

export interface Branding {
  productName: string;
  logo: string;
}

export const DEFAULT_BRANDING: Branding = { productName: "IoT Control Plane", logo: "/branding/logo.svg" };

/** Accepts only string fields; a logo must be a path of this origin (no script or remote URL). */
export function parseBranding(value: unknown): Branding {
  const record = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  const text = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
  const logo = text(record.logo);
  return {
    productName: text(record.productName) ?? DEFAULT_BRANDING.productName,
    logo: logo && logo.startsWith("/") && !logo.startsWith("//") ? logo : DEFAULT_BRANDING.logo,
  };
}

export async function loadBranding(): Promise<Branding> {
  try {
    const response = await fetch("/branding/branding.json", { credentials: "same-origin" });
    return parseBranding(response.ok ? await response.json() : null);
  } catch {
    return DEFAULT_BRANDING; // unreachable or not JSON: the defaults stand in
  }
}
