// The dashboard: a Vite + React single-page app served by the Worker's static assets (dist/).
// `npm run dashboard:dev` serves it on :5173 and proxies the API to a local `npm start` on :8787.
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

declare const process: { env: Record<string, string | undefined> };

const root = decodeURIComponent(new URL(".", import.meta.url).pathname);
const api = process.env.FJ_API_ORIGIN ?? "http://127.0.0.1:8787";

export default defineConfig({
  root,
  plugins: [react()],
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
    },
  },
});
