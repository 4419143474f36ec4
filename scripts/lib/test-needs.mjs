// Which throwaway servers a set of test files needs, read from their text: a file needs a server
// when it, or a test helper it imports (relative imports, followed within test/), injects it.
// vitest's globalSetup uses this to start Dovecot and the fake model server only when needed.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { root } from "./dashboard.mjs";

/** Server name → the text that marks a file as needing it. */
export const MARKERS = {
  imap: 'inject("imap")',
  modelServer: 'inject("modelServer")',
};

const IMPORT = /\b(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]*?\s*from\s*)?["'](\.[^"']+)["']/g;
const testDir = join(root, "test");

function resolve(from, spec) {
  const base = join(dirname(from), spec);
  const candidates = [base, `${base}.ts`, base.replace(/\.m?js$/, ".ts"), join(base, "index.ts")];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

/** The set of MARKERS keys that `files` (absolute paths) need. */
export function serversNeeded(files) {
  const needed = new Set();
  const seen = new Set();
  const stack = [...files];
  while (stack.length) {
    const file = stack.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const [name, marker] of Object.entries(MARKERS)) if (text.includes(marker)) needed.add(name);
    for (const m of text.matchAll(IMPORT)) {
      const target = resolve(file, m[1]);
      if (target && !relative(testDir, target).startsWith(`..${sep}`)) stack.push(target);
    }
  }
  return needed;
}
