// Types of console-sizes.mjs for the TypeScript that imports it (bench/console.bench.ts).
export interface SizeFigure {
  name: string;
  bytes: number;
  budget: number;
  ok: boolean;
}
export function consoleSizes(dir: string): SizeFigure[];
export function sizeLine(figure: SizeFigure): string;
