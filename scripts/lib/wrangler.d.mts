export const wranglerBin: string;
export function stateArgs(argv: string[]): { persistTo: string | null; remote: boolean; rest: string[] };
export function d1Target(t: { persistTo: string | null; remote: boolean }): string[];
export function runWrangler(
  args: string[],
  opts?: { capture?: boolean; allowFail?: boolean },
): { status: number | null; stdout: string; stderr: string };
export function applyMigrations(
  target: { persistTo: string | null; remote: boolean },
  opts?: { quiet?: boolean; log?: (line: string) => void },
): string[];
export function migrationsApplied(output: string): string[];
