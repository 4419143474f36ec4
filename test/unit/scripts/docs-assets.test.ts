// The copy step of the /docs and /redoc viewers (scripts/lib/docs-assets.mjs): exactly the files
// the pages load plus their licence texts, no source maps, no call to a vendor's server.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { copyDocsAssets, DOCS_DIR, DOCS_FILES } from "../../../scripts/lib/docs-assets.mjs";
import { DOCS_ASSETS } from "../../../src/domains/system/docs";
import { entries, exists, files, join, readText, remove, tempDir, writeText } from "./docs-assets-fs.mjs";

const EXPECTED = [
  "redoc/LICENSE",
  "redoc/d87bcbdbea8f8f5aa26f.worker.js.LICENSE.txt",
  "redoc/redoc.standalone.js",
  "redoc/redoc.standalone.js.LICENSE.txt",
  "swagger-ui/LICENSE",
  "swagger-ui/NOTICE",
  "swagger-ui/swagger-ui-bundle.js",
  "swagger-ui/swagger-ui-bundle.js.LICENSE.txt",
  "swagger-ui/swagger-ui.css",
];

let dist = "";
beforeEach(() => {
  dist = tempDir();
});
afterEach(() => remove(dist));

describe("copyDocsAssets", () => {
  it("writes exactly the viewers and their licence files under _docs", () => {
    expect(copyDocsAssets(dist).sort()).toEqual(EXPECTED);
    expect(entries(dist)).toEqual([DOCS_DIR]);
    expect(files(join(dist, DOCS_DIR))).toEqual(EXPECTED);
    expect(readText(dist, "_docs/swagger-ui/LICENSE")).toMatch(/Apache License/);
    expect(readText(dist, "_docs/swagger-ui/NOTICE")).toMatch(/SmartBear/);
    expect(readText(dist, "_docs/redoc/LICENSE")).toMatch(/MIT License/);
    // Each bundle's "see <file> for licence information" names a file that is there.
    for (const bundle of ["swagger-ui/swagger-ui-bundle.js", "redoc/redoc.standalone.js"]) {
      const text = readText(dist, DOCS_DIR, bundle);
      const named = [...text.matchAll(/For license information please see ([\w.-]+)/g)].map(
        (m) => m[1] ?? "",
      );
      expect(named.length, bundle).toBeGreaterThan(0);
      for (const n of named) expect(exists(join(dist, DOCS_DIR, bundle, "..", n)), n).toBe(true);
    }
  });

  it("ships no source map and no reference to one, nor to the vendor's CDN", () => {
    copyDocsAssets(dist);
    for (const f of EXPECTED.filter((f) => /\.(js|css)$/.test(f))) {
      const text = readText(dist, DOCS_DIR, f);
      // Booleans, not the text: a failure would print megabytes of bundle.
      expect(/^\s*\/[/*][#@] sourceMappingURL=/m.test(text), f).toBe(false);
      expect(text.match(/cdn\.redoc\.ly|jsdelivr|unpkg|fonts\.googleapis/)?.[0], f).toBeUndefined();
    }
    expect(files(dist).some((f) => f.endsWith(".map"))).toBe(false);
  });

  it("is idempotent and removes what does not belong", () => {
    copyDocsAssets(dist);
    writeText(join(dist, DOCS_DIR, "redoc", "stray.js.map"), "{}");
    writeText(join(dist, "index.html"), "<!doctype html>");
    expect(copyDocsAssets(dist)).toEqual([]);
    expect(files(join(dist, DOCS_DIR))).toEqual(EXPECTED);
    expect(exists(join(dist, "index.html"))).toBe(true);
    // A damaged copy is rewritten.
    writeText(join(dist, DOCS_DIR, "redoc", "redoc.standalone.js"), "half");
    expect(copyDocsAssets(dist)).toEqual(["redoc/redoc.standalone.js"]);
  });

  it("fails loudly when a package is missing", () => {
    expect(() => copyDocsAssets(dist, { modules: join(dist, "nowhere") })).toThrow();
  });

  it("writes every file the /docs and /redoc pages load", () => {
    const targets = new Set(DOCS_FILES.map(([, , to]) => `/${DOCS_DIR}/${to}`));
    for (const url of Object.values(DOCS_ASSETS)) expect(targets.has(url), url).toBe(true);
  });
});
