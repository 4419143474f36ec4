// The dashboard: a Vite + React single-page app served by the Worker's static assets (dist/).
// `npm run dashboard:dev` serves it on :5173 and proxies the API to a local `npm start` on :8787.
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { copyDocsAssets } from "../scripts/lib/docs-assets.mjs";

declare const process: { env: Record<string, string | undefined> };

const root = decodeURIComponent(new URL(".", import.meta.url).pathname);
const api = process.env.FJ_API_ORIGIN ?? "http://127.0.0.1:8787";

/** Puts the /docs and /redoc viewers into dist/_docs (scripts/lib/docs-assets.mjs says why). */
function docsViewers(): Plugin {
  let outDir = "";
  return {
    name: "fj-docs-viewers",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir.startsWith("/")
        ? config.build.outDir
        : `${config.root}/${config.build.outDir}`;
    },
    writeBundle() {
      try {
        copyDocsAssets(outDir);
      } catch (err) {
        // Without them /docs and /redoc draw the plain offline reader; the dashboard still ships.
        this.warn(`docs viewers not copied: ${(err as Error).message}`);
      }
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), docsViewers()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      "/api": { target: api, changeOrigin: false },
      "/openapi.json": api,
      "/docs": api,
      "/redoc": api,
      "/_docs": api,
    },
  },
});
