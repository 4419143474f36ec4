// The real-world alert corpora of ../shared/corpora (never committed here: its README), read in
// Node when vitest starts and handed to workerd as the TEST_ALERT_CORPORA binding (and Tidings'
// reference data of ../shared/reference/tidings as TEST_TIDINGS, below): each corpus's
// files by path relative to its alerts folder (`.eml` and `.json` as text; world2's index.json as
// "../index.json"), or null when the folder is absent (the tests that read it then say they were
// skipped, in a line).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const SHARED = join(import.meta.dirname, "..", "..", "..", "shared");

export const ALERT_CORPORA = { peers: "project-peers/alerts", world2: "world2/alerts" };

// Every file under dir by its path relative to root, as `read` returns it (skipped when undefined).
function walk(dir, root, out, read) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, root, out, read);
    else {
      const text = read(name, path);
      if (text !== undefined) out[relative(root, path)] = text;
    }
  }
}
const emlOrJson = (name, path) => (/\.(eml|json)$/.test(name) ? readFileSync(path, "utf8") : undefined);

/** Every corpus's files (null where its folder is absent). */
export function readAlertCorpora(base = join(SHARED, "corpora")) {
  const out = {};
  for (const [key, sub] of Object.entries(ALERT_CORPORA)) {
    const dir = join(base, sub);
    if (!existsSync(dir)) {
      out[key] = null;
      continue;
    }
    const files = {};
    walk(dir, dir, files, emlOrJson);
    const index = join(dir, "..", "index.json");
    if (existsSync(index)) files["../index.json"] = readFileSync(index, "utf8");
    out[key] = files;
  }
  return out;
}

/** The line a test prints where Tidings' reference data (../shared/reference/tidings) is absent. */
export const TIDINGS_ABSENT =
  "skipped: ../shared/reference/tidings (Tidings' alerts, statements, config, openapi.json) is absent on this machine";

/**
 * Tidings' reference data files (../shared/reference/tidings: its README; never committed here)
 * by path relative to that folder: text files as text, PDFs as base64. null where it is absent.
 */
export function readTidings(dir = join(SHARED, "reference", "tidings")) {
  if (!existsSync(dir)) return null;
  const files = {};
  walk(dir, dir, files, (name, path) => {
    if (/\.(txt|json|eml)$/.test(name)) return readFileSync(path, "utf8");
    if (name.endsWith(".pdf")) return readFileSync(path).toString("base64");
  });
  return files;
}
