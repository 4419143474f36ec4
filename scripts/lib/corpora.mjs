// The real-world alert corpora of ../shared/corpora (never committed here: its README), read in
// Node when vitest starts and handed to workerd as the TEST_ALERT_CORPORA binding: each corpus's
// files by path relative to its alerts folder (`.eml` and `.json` as text; world2's index.json as
// "../index.json"), or null when the folder is absent (the tests that read it then say they were
// skipped, in a line).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export const ALERT_CORPORA = { peers: "project-peers/alerts", world2: "world2/alerts" };

function walk(dir, root, out) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, root, out);
    else if (/\.(eml|json)$/.test(name)) out[relative(root, path)] = readFileSync(path, "utf8");
  }
}

/** Every corpus's files (null where its folder is absent). */
export function readAlertCorpora(base = join(import.meta.dirname, "..", "..", "..", "shared", "corpora")) {
  const out = {};
  for (const [key, sub] of Object.entries(ALERT_CORPORA)) {
    const dir = join(base, sub);
    if (!existsSync(dir)) {
      out[key] = null;
      continue;
    }
    const files = {};
    walk(dir, dir, files);
    const index = join(dir, "..", "index.json");
    if (existsSync(index)) files["../index.json"] = readFileSync(index, "utf8");
    out[key] = files;
  }
  return out;
}
