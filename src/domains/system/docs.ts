/**
 * /docs (Swagger UI) and /redoc (ReDoc). The viewers are static assets of our own origin (the
 * dashboard build copies them to /_docs/, see scripts/lib/docs-assets.mjs): they are too big for
 * the Worker's script, and a private journal must work without internet and never call a CDN. A
 * Content-Security-Policy in the page holds every request to this origin. When a viewer's script
 * is missing (a dev Worker without a built dashboard) or fails to start, the page draws our own
 * reader from /openapi.json instead, so the API reference never comes up blank.
 */
import { OFFLINE_READER, OFFLINE_STYLE } from "./docs-offline";

/** Where the viewers are served; scripts/lib/docs-assets.mjs writes exactly these files. */
export const DOCS_ASSETS = {
  swaggerScript: "/_docs/swagger-ui/swagger-ui-bundle.js",
  swaggerStyle: "/_docs/swagger-ui/swagger-ui.css",
  redocScript: "/_docs/redoc/redoc.standalone.js",
} as const;

// Same origin only. Inline script/style: our bootstrap and the viewers' own styles; data: for the
// viewers' inline icons; blob: for ReDoc's search worker. Sent as a header too (src/app.ts), where
// src/http/headers.ts adds frame-ancestors (a <meta> policy cannot carry it).
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

/**
 * The page around a viewer. `start` runs when the viewer's script has loaded: it returns false
 * when the viewer is not there (the asset route answered with something else) or throws, and then
 * the offline reader takes over, as it does when the script cannot load at all.
 */
function page(opts: {
  title: string;
  specUrl: string;
  head: string;
  body: string;
  script: string;
  start: string;
}) {
  const spec = JSON.stringify(opts.specUrl);
  const specAttr = spec.replaceAll('"', "&quot;");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${DOCS_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title}</title>
<style>${OFFLINE_STYLE}</style>
${opts.head}
</head>
<body>
<div id="ui">${opts.body}</div>
<main id="offline" hidden></main>
<script>${OFFLINE_READER}
window.fjStart = function () {
  var ok = false;
  try { ok = (function (spec) { ${opts.start} })(${spec}); } catch (e) { console.warn("viewer failed to start", e); }
  if (!ok) fjOffline(${spec});
};
</script>
<script src="${opts.script}" onload="fjStart()" onerror="fjOffline(${specAttr})"></script>
</body>
</html>`;
}

export function swaggerPage(specUrl: string): string {
  return page({
    title: "Finance Journal API · Swagger UI",
    specUrl,
    head: `<link rel="stylesheet" href="${DOCS_ASSETS.swaggerStyle}">
<style>body { margin: 0; } .swagger-ui .wrapper { padding: 0 12px; box-sizing: border-box; }</style>`,
    body: '<div id="swagger-ui"></div>',
    script: DOCS_ASSETS.swaggerScript,
    // validatorUrl null: no badge image from the public validator service.
    start: `if (!window.SwaggerUIBundle) return false;
  window.ui = SwaggerUIBundle({ url: spec, dom_id: "#swagger-ui", deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis], layout: "BaseLayout", validatorUrl: null });
  return true;`,
  });
}

export function redocPage(specUrl: string): string {
  return page({
    title: "Finance Journal API · ReDoc",
    specUrl,
    head: "<style>body { margin: 0; }</style>",
    body: '<div id="redoc"></div>',
    script: DOCS_ASSETS.redocScript,
    start: `if (!window.Redoc) return false;
  Redoc.init(spec, {}, document.getElementById("redoc"), function (err) { if (err) fjOffline(spec); });
  return true;`,
  });
}
