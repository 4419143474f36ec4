/**
 * The real-world alert corpora of `../shared/corpora` (never committed here: its README), read in
 * Node when vitest starts and handed to workerd as the TEST_ALERT_CORPORA binding: each corpus's
 * files by path relative to its alerts folder (`.eml` as text, `index.json` as text), or null when
 * the folder is absent (the tests that read it then say they were skipped, in a line).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export const ALERT_CORPORA = {
  peers: "project-peers/alerts",
  world2: "world2/alerts",
} as const;

export type AlertCorpora = Record<keyof typeof ALERT_CORPORA, Record<string, string> | null>;

function walk(dir: string, root: string, out: Record<string, string>) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, root, out);
    else if (/\.(eml|json)$/.test(name)) out[relative(root, path)] = readFileSync(path, "utf8");
  }
}

/** Every corpus's files (null where its folder is absent). */
export function readAlertCorpora(base = join(import.meta.dirname, "..", "..", "..", "shared", "corpora")) {
  const out = {} as AlertCorpora;
  for (const [key, sub] of Object.entries(ALERT_CORPORA) as [keyof typeof ALERT_CORPORA, string][]) {
    const dir = join(base, sub);
    if (!existsSync(dir)) {
      out[key] = null;
      continue;
    }
    const files: Record<string, string> = {};
    walk(dir, dir, files);
    // world2 keeps its expectations one folder up.
    const index = join(dir, "..", "index.json");
    if (key === "world2" && existsSync(index)) files["../index.json"] = readFileSync(index, "utf8");
    out[key] = files;
  }
  return out;
}
