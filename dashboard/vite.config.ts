// The dashboard: a Vite + React single-page app served by the Worker's static assets (dist/).
// `npm run dashboard:dev` serves it on :5173 and proxies the API to a local `npm start` on :8787.
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin, type ProxyOptions } from "vite";
import { copyDocsAssets } from "../scripts/lib/docs-assets.mjs";
import { applyApiOrigin } from "../scripts/lib/headers-policy.mjs";

declare const process: { env: Record<string, string | undefined> };

const root = decodeURIComponent(new URL(".", import.meta.url).pathname);
const api = process.env.FJ_API_ORIGIN ?? "http://127.0.0.1:8787";
const DEV_PORT = 5173;
/** This dev server's own origins: only its pages' writes are passed on as the API's own. */
const DEV_ORIGINS = new Set(["localhost", "127.0.0.1", "[::1]"].map((h) => `http://${h}:${DEV_PORT}`));

/**
 * /api through the dev server: the Worker trusts no cross-origin caller by default (no
 * CORS_ALLOWED_ORIGINS entry for :5173), so the proxy presents this server's own pages as the
 * API's origin. Any other page's Origin is passed on unchanged, and its writes are refused.
 */
/** The part of http-proxy's server used here (the dashboard's types do not include Node's). */
interface ProxyEvents {
  on(
    event: "proxyReq",
    fn: (req: { getHeader(n: string): unknown; setHeader(n: string, v: string): void }) => void,
  ): void;
}

const apiProxy: ProxyOptions = {
  target: api,
  changeOrigin: true,
  configure(proxy) {
    (proxy as unknown as ProxyEvents).on("proxyReq", (req) => {
      const origin = req.getHeader("origin");
      if (typeof origin === "string" && DEV_ORIGINS.has(origin)) req.setHeader("origin", new URL(api).origin);
    });
  },
};

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
      // A dashboard served elsewhere may call the API's origin (dashboard/public/_headers).
      applyApiOrigin(outDir, process.env.VITE_API_BASE_URL);
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
    port: DEV_PORT,
    strictPort: true,
    proxy: {
      "/api": apiProxy,
      "/openapi.json": api,
      "/docs": api,
      "/redoc": api,
      "/_docs": api,
    },
  },
});
