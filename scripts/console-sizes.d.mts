// Types of console-sizes.mjs for the TypeScript that imports it (bench/, e2e/console/delivery.test.ts).
export interface SizeFigure {
  name: string;
  bytes: number;
  budget: number;
  ok: boolean;
}
export function consoleSizes(dir: string): SizeFigure[];
export function sizeLine(figure: SizeFigure): string;
export const BUDGETS: { signInJs: number; signInCss: number; screen: number; totalJs: number };
export function signInFiles(dir: string): { js: string[]; css: string[] };
