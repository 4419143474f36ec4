// File-system helpers for docs-assets.test.ts (the TypeScript project has no Node types).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export { existsSync as exists, join };
export const tempDir = () => mkdtempSync(join(tmpdir(), "fj-docs-assets-"));
export const remove = (dir) => rmSync(dir, { recursive: true, force: true });
export const readText = (...parts) => readFileSync(join(...parts), "utf8");
export const writeText = (path, text) => writeFileSync(path, text);
export const entries = (dir) => readdirSync(dir).sort();

/** Every file under `dir`, relative, with forward slashes, sorted. */
export function files(dir) {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => statSync(join(dir, f)).isFile())
    .map((f) => f.split("\\").join("/"))
    .sort();
}
