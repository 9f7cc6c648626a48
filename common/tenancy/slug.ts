// Organization codes: their format, and the code a display name suggests (the console's create form and
// bootstrap both derive one).

/** Organization codes appear in generated e-mail domains and bus subjects. */
export const ORGANIZATION_CODE_PATTERN = "^[a-z0-9][a-z0-9-]{0,62}$";

/** An organization code derived from a display name: lower-case alphanumerics and single hyphens. */
export function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63)
    .replace(/-+$/, "");
  return slug || "org";
}
