// Embedded branding, served when the configured branding directory lacks a file (each file falls back
// on its own).
export interface BrandingFile {
  contentType: string;
  body: string;
}

const theme = `:root {
  --brand-primary: #1f6feb;
  --brand-accent: #2da44e;
  --brand-background: #ffffff;
  --brand-foreground: #1f2328;
  --brand-radius: 6px;
  --brand-font: system-ui, -apple-system, "Segoe UI", sans-serif;
}
`;

const logo = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img" aria-label="IoT control plane">
  <rect width="64" height="64" rx="12" fill="#1f6feb"/>
  <circle cx="32" cy="32" r="8" fill="#fff"/>
  <path d="M16 32a16 16 0 0 1 32 0M10 32a22 22 0 0 1 44 0" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round"/>
</svg>
`;

const branding = `${JSON.stringify({ productName: "IoT Control Plane", logo: "/branding/logo.svg", theme: "/branding/theme.css" }, null, 2)}\n`;

export const BRANDING_FILES: Readonly<Record<string, BrandingFile>> = {
  "theme.css": { contentType: "text/css; charset=utf-8", body: theme },
  "logo.svg": { contentType: "image/svg+xml", body: logo },
  "branding.json": { contentType: "application/json; charset=utf-8", body: branding },
};
