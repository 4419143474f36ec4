// The viewers of /docs (Swagger UI) and /redoc (ReDoc), served as static assets from our own origin
// so the API reference works without internet and a private journal never calls a CDN. They are
// ~1.2 MB gzip, too big for the Worker's own script, so the dashboard build copies them into
// dashboard/dist/_docs/ (a path wrangler.toml does not route to the Worker). Only what the pages
// load, plus each package's licence texts; no source maps (and no comment pointing at one), and no
// reference to a vendor's server (see EDITS).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The folder inside the assets directory; the pages (src/domains/system/docs.ts) use `/_docs/…`. */
export const DOCS_DIR = "_docs";

/** [package, file inside the package, where it goes under DOCS_DIR]. */
export const DOCS_FILES = [
  ["swagger-ui-dist", "swagger-ui-bundle.js", "swagger-ui/swagger-ui-bundle.js"],
  ["swagger-ui-dist", "swagger-ui-bundle.js.LICENSE.txt", "swagger-ui/swagger-ui-bundle.js.LICENSE.txt"],
  ["swagger-ui-dist", "swagger-ui.css", "swagger-ui/swagger-ui.css"],
  ["swagger-ui-dist", "LICENSE", "swagger-ui/LICENSE"],
  ["swagger-ui-dist", "NOTICE", "swagger-ui/NOTICE"],
  ["redoc", "bundles/redoc.standalone.js", "redoc/redoc.standalone.js"],
  ["redoc", "bundles/redoc.standalone.js.LICENSE.txt", "redoc/redoc.standalone.js.LICENSE.txt"],
  // The search worker inlined in the bundle (lunr) names its own licence file.
  [
    "redoc",
    "bundles/d87bcbdbea8f8f5aa26f.worker.js.LICENSE.txt",
    "redoc/d87bcbdbea8f8f5aa26f.worker.js.LICENSE.txt",
  ],
  ["redoc", "LICENSE", "redoc/LICENSE"],
];

// The last line of the bundles names a .map we do not ship; the browser would ask for it.
const SOURCE_MAP_COMMENT = /\n?\/[/*][#@] sourceMappingURL=[^\n]*\s*$/;

/**
 * ReDoc's sidebar credit draws its logo from the vendor's CDN (and hides it when that fails). The
 * pages' Content-Security-Policy would block it with a console error; an empty data: image fails
 * the same way without a request. Each edit must match exactly once, so a new version is re-checked.
 */
export const EDITS = {
  "bundles/redoc.standalone.js": [['src:"https://cdn.redoc.ly/redoc/logo-mini.svg"', 'src:"data:,"']],
};

function contents(modules, pkg, file) {
  const source = join(modules, pkg, file);
  const buf = readFileSync(source);
  if (!/\.(js|css)$/.test(source)) return buf;
  let text = buf.toString("utf8").replace(SOURCE_MAP_COMMENT, "\n");
  for (const [from, to] of EDITS[file] ?? []) {
    const n = text.split(from).length - 1;
    if (n !== 1) throw new Error(`${pkg}/${file}: expected "${from}" once, found it ${n} times`);
    text = text.replace(from, to);
  }
  return Buffer.from(text);
}

function listFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath ?? e.path, e.name)));
}

/**
 * Makes `<dist>/_docs` hold exactly DOCS_FILES. Writes a file only when its content differs (several
 * test runs may share one dist) and through a rename, so a reader never sees half a bundle.
 * Returns the paths written, relative to `<dist>/_docs`. Throws when a package is not installed.
 */
export function copyDocsAssets(dist, { modules = join(root, "node_modules") } = {}) {
  const target = join(dist, DOCS_DIR);
  const wanted = new Set(DOCS_FILES.map(([, , to]) => to));
  const written = [];
  for (const [pkg, file, to] of DOCS_FILES) {
    const data = contents(modules, pkg, file);
    const dest = join(target, to);
    if (existsSync(dest) && readFileSync(dest).equals(data)) continue;
    mkdirSync(dirname(dest), { recursive: true });
    const tmp = `${dest}.${process.pid}.tmp`;
    writeFileSync(tmp, data);
    renameSync(tmp, dest);
    written.push(to);
  }
  for (const extra of listFiles(target)) {
    if (!wanted.has(extra.split("\\").join("/"))) rmSync(join(target, extra), { force: true });
  }
  return written;
}
