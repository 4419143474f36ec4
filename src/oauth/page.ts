/**
 * The consent page and its error page: server-rendered HTML, every client-supplied value escaped.
 * No script at all; inline styles only; never framed.
 */
import type { ConsentDescription } from "@cloudflare/workers-oauth-provider";
import { plainName } from "../domains/connected-apps/grant";

const escapeHtml = (value: string) => value.replace(/[&<>"'`]/g, (ch) => `&#${ch.charCodeAt(0)};`);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1b1f24}
main{max-width:34rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin:0 0 1rem;overflow-wrap:anywhere}.host{font-weight:600;overflow-wrap:anywhere}
.warn{background:#fff4d6;border-left:4px solid #c98a00;padding:.6rem .8rem;border-radius:6px}
fieldset{border:1px solid #d0d5dc;border-radius:8px;margin:1rem 0}label{display:block;padding:.35rem 0}
.actions{display:flex;gap:.75rem;flex-wrap:wrap}button{font:inherit;padding:.6rem 1.4rem;border-radius:8px;border:1px solid #8a94a3;background:#fff;cursor:pointer}
button[value=approve]{background:#1f6feb;border-color:#1f6feb;color:#fff}.note{color:#57606a;font-size:.9rem}
@media (max-width:480px){main{margin:0;border-radius:0;min-height:100vh;box-sizing:border-box}.actions button{flex:1}}`;

/** Headers of every page here: not framed, not sniffed, not cached, no script, no referrer beyond this origin. */
export function pageHeaders(base?: Headers): Headers {
  const h = new Headers(base);
  h.set("Content-Type", "text/html; charset=utf-8");
  h.set(
    "Content-Security-Policy",
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  h.set("X-Frame-Options", "DENY");
  h.set("X-Content-Type-Options", "nosniff");
  // Not "no-referrer": with it the browser sends `Origin: null` on the form POST, which the
  // same-origin check must refuse. "same-origin" still tells the app (cross-origin) nothing.
  h.set("Referrer-Policy", "same-origin");
  h.set("Cache-Control", "no-store");
  return h;
}

const shell = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;

export function consentPage(d: ConsentDescription, handle: string): string {
  const shown = plainName(d.clientName) || "Unnamed app";
  const name = escapeHtml(shown);
  const wantsWrite = d.scope.includes("write");
  const loopback = d.redirectIsLoopback
    ? `<p class="warn" data-testid="loopback-warning">This sends access to an app on <strong>this computer</strong>
(${escapeHtml(plainName(d.redirectHost))}). Continue only if you just started connecting from it: any program on this
computer could be listening there.</p>`
    : "";
  return shell(
    `Connect ${shown} to your journal?`,
    `<h1>Allow <span data-testid="client-name">${name}</span> to use your journal?</h1>
<p>This app registered itself with this name; the journal cannot verify it.</p>
<p>If you allow it, access is sent to <span class="host" data-testid="redirect-host">${escapeHtml(plainName(d.redirectHost))}</span>.</p>
${loopback}
<form method="post">
<input type="hidden" name="handle" value="${escapeHtml(handle)}">
<fieldset><legend>It may</legend>
<label><input type="radio" name="access" value="read"${wantsWrite ? "" : " checked"}> read your journal</label>
<label><input type="radio" name="access" value="write"${wantsWrite ? " checked" : ""}> read and change your journal</label>
</fieldset>
<p class="note">Changes it makes appear under its name in Activity and can be undone. Disconnect it any time in Settings → Connected apps.</p>
<div class="actions"><button name="decision" value="approve">Allow</button><button name="decision" value="deny">Deny</button></div>
</form>`,
  );
}

export function messagePage(title: string, message: string): string {
  return shell(
    title,
    `<h1>${escapeHtml(title)}</h1><p data-testid="message">${escapeHtml(message)}</p><p><a href="/">Open the journal</a></p>`,
  );
}
