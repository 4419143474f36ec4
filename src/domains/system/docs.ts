/**
 * /docs (Swagger UI) and /redoc (ReDoc). The viewers load from a CDN when there is internet; when
 * the script cannot load (offline, blocked) or the browser says it is offline, the page draws our
 * own reader from /openapi.json instead, so the API reference never comes up blank.
 */
import { OFFLINE_READER, OFFLINE_STYLE } from "./docs-offline";

const SWAGGER = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5.17.14";
const REDOC = "https://cdn.jsdelivr.net/npm/redoc@2.1.5/bundles/redoc.standalone.js";
/** How long the CDN may take before the offline reader is drawn instead. */
const CDN_PATIENCE_MS = 4000;

function page(title: string, specUrl: string, head: string, body: string, ready: string): string {
  const spec = JSON.stringify(specUrl);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${OFFLINE_STYLE}</style>
${head}
</head>
<body>
<div id="ui">${body}</div>
<main id="offline" hidden></main>
<script>${OFFLINE_READER}
if (navigator.onLine === false) fjOffline(${spec});
setTimeout(function () { if (!(${ready})) fjOffline(${spec}); }, ${CDN_PATIENCE_MS});
</script>
`;
}

export function swaggerPage(specUrl: string): string {
  const spec = JSON.stringify(specUrl);
  return `${page(
    "Finance Journal API · Swagger UI",
    specUrl,
    `<link rel="stylesheet" href="${SWAGGER}/swagger-ui.css" crossorigin="anonymous">`,
    '<div id="swagger-ui"></div>',
    "window.SwaggerUIBundle",
  )}<script src="${SWAGGER}/swagger-ui-bundle.js" crossorigin="anonymous" onerror="fjOffline(${spec.replaceAll('"', "&quot;")})"></script>
<script>
if (window.SwaggerUIBundle && !window.fjOfflineDone)
  window.ui = SwaggerUIBundle({ url: ${spec}, dom_id: "#swagger-ui", deepLinking: true, presets: [SwaggerUIBundle.presets.apis] });
</script>
</body>
</html>`;
}

export function redocPage(specUrl: string): string {
  const spec = JSON.stringify(specUrl);
  return `${page(
    "Finance Journal API · ReDoc",
    specUrl,
    "",
    `<redoc spec-url=${spec}></redoc>`,
    "window.Redoc",
  )}<script src="${REDOC}" crossorigin="anonymous" onerror="fjOffline(${spec.replaceAll('"', "&quot;")})"></script>
</body>
</html>`;
}
