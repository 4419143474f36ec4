// Finance Journal's service worker: the installed app's share target, and an app shell that opens
// offline showing the last data it loaded.
//  - POST /share (the manifest's share_target): the shared files are kept in the "fj-share" cache
//    and the page /share shows them (name, size, kind); only the owner's Keep there uploads them,
//    with the session, through the normal API (same checks, same outcomes in words as a drop on
//    the page). A share is kept only when it is a top-level navigation started by the system's
//    share sheet (no initiating page) or by a page of this origin: a form another site submits
//    to /share stores nothing (issue 35). At most SHARE_MAX_FILES files of SHARE_MAX_FILE_BYTES
//    are kept, SHARE_MAX_BYTES in all, and a kept share expires after SHARE_TTL_MS.
//  - The shell (the page, its hashed assets, icons) is cached as it is fetched; navigations are
//    network-first with the cached page as the fallback.
//  - A few reads the journal needs to draw a month (config, categories, health, journal, session)
//    are network-first and kept, so offline the last loaded month still shows; responses that
//    came from the cache carry `X-FJ-Offline: 1`. Nothing else under /api is cached, no write is
//    ever touched, and sign-out clears the kept reads (the page posts "forget"). The kept reads
//    go with the session however it ended (issue 35: sign-out-all or a password change on another
//    device): any kept read the server answers 401 clears them, and every online open of the app
//    asks the server whether the session still holds before the cached month can be shown again.
const SHELL = "fj-shell-v1";
const DATA = "fj-data-v1";
const SHARE = "fj-share";
const SHARE_MAX_FILES = 10;
const SHARE_MAX_FILE_BYTES = 10 * 1024 * 1024;
const SHARE_MAX_BYTES = 40 * 1024 * 1024;
const SHARE_TTL_MS = 24 * 3600 * 1000;
const KEPT_READS = [/^\/api\/v1\/(config|categories|health|auth\/session)$/, /^\/api\/v1\/journal$/];

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const keep = new Set([SHELL, DATA, SHARE]);
      for (const name of await caches.keys()) if (!keep.has(name)) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  if (event.data === "forget") event.waitUntil(caches.delete(DATA));
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.method === "POST" && url.pathname === "/share") {
    event.respondWith(receiveShare(event));
    return;
  }
  if (req.method !== "GET") return;
  if (url.pathname.startsWith("/api/")) {
    if (KEPT_READS.some((re) => re.test(url.pathname))) event.respondWith(networkFirst(req, DATA));
    return;
  }
  if (req.mode === "navigate") {
    event.respondWith(navigation(req));
    return;
  }
  if (/^\/(assets|icons)\/|^\/(favicon\.svg|manifest\.webmanifest)$/.test(url.pathname))
    event.respondWith(cacheFirst(req));
});

/**
 * Whether a POST to /share is the installed app's share target. A service worker does not see the
 * Sec-Fetch-* headers (the browser adds them after it), so it reads what it does see: a top-level
 * navigation to a document; an Origin that is ours (or none / "null": the share sheet has no
 * initiator, and our own pages send "null" under their no-referrer policy); no Referer from
 * elsewhere; and the page that started the navigation, when there is one, is a page of ours
 * (clients.get finds only this origin's clients: another site's page is not found).
 */
async function isOwnShare(event) {
  const req = event.request;
  if (req.mode !== "navigate" || req.destination !== "document") return false;
  const here = self.location.origin;
  const origin = req.headers.get("Origin");
  if (origin !== null && origin !== "null" && origin !== here) return false;
  if (req.referrer && req.referrer !== "about:client" && new URL(req.referrer).origin !== here) return false;
  if (event.clientId) {
    const client = await self.clients.get(event.clientId);
    return Boolean(client) && new URL(client.url).origin === here;
  }
  return true;
}

/** Drops kept shares past their time; returns what is still kept (count, bytes). */
async function sweepShares(cache, now) {
  let count = 0;
  let bytes = 0;
  for (const key of await cache.keys()) {
    const hit = await cache.match(key);
    const at = Number(hit?.headers.get("X-Shared-At"));
    if (!hit || !(now - at < SHARE_TTL_MS)) {
      await cache.delete(key);
      continue;
    }
    count++;
    bytes += Number(hit.headers.get("X-File-Size")) || 0;
  }
  return { count, bytes };
}

async function receiveShare(event) {
  const req = event.request;
  if (!(await isOwnShare(event))) return Response.redirect("/share?refused=1", 303);
  let count = 0;
  let skipped = 0;
  try {
    const form = await req.formData();
    const cache = await caches.open(SHARE);
    const stamp = Date.now();
    const kept = await sweepShares(cache, stamp);
    for (const value of form.getAll("file")) {
      if (typeof value === "string") continue;
      if (
        kept.count >= SHARE_MAX_FILES ||
        value.size > SHARE_MAX_FILE_BYTES ||
        kept.bytes + value.size > SHARE_MAX_BYTES
      ) {
        skipped++;
        continue;
      }
      const key = `/share-inbox/${stamp}-${count++}`;
      await cache.put(
        key,
        new Response(value, {
          headers: {
            "Content-Type": value.type || "application/octet-stream",
            "X-File-Name": encodeURIComponent(value.name || "shared file"),
            "X-File-Size": String(value.size),
            "X-Shared-At": String(stamp),
          },
        }),
      );
      kept.count++;
      kept.bytes += value.size;
    }
  } catch {
    return Response.redirect("/share?error=unreadable", 303);
  }
  return Response.redirect(`/share?received=${count}${skipped ? `&skipped=${skipped}` : ""}`, 303);
}

/** The session is over (401): what was kept for it is dropped. */
async function forgetIfSignedOut(res) {
  if (res.status === 401) await caches.delete(DATA);
  return res;
}

/** On an online open: the kept reads stay only while the server still knows the session. */
async function checkSession() {
  try {
    await forgetIfSignedOut(await fetch("/api/v1/whoami", { credentials: "same-origin", cache: "no-store" }));
  } catch {
    // offline: nothing to ask; the open before this one was checked
  }
}

async function networkFirst(req, cacheName) {
  const cache = await caches.open(cacheName);
  try {
    const res = await forgetIfSignedOut(await fetch(req));
    if (res.ok) await cache.put(req, res.clone());
    return res;
  } catch (err) {
    const hit = await cache.match(req);
    if (!hit) throw err;
    const headers = new Headers(hit.headers);
    headers.set("X-FJ-Offline", "1");
    return new Response(hit.body, { status: hit.status, headers });
  }
}

async function navigation(req) {
  const cache = await caches.open(SHELL);
  try {
    // The session is checked beside the page's own fetch, and answered before the page can read
    // the kept month.
    const [res] = await Promise.all([fetch(req), checkSession()]);
    if (res.ok && (res.headers.get("content-type") ?? "").includes("text/html")) await cache.put("/", res.clone());
    return res;
  } catch (err) {
    const hit = await cache.match("/");
    if (hit) return hit;
    throw err;
  }
}

async function cacheFirst(req) {
  const cache = await caches.open(SHELL);
  const hit = await cache.match(req);
  if (hit) return hit;
  const res = await fetch(req);
  if (res.ok) await cache.put(req, res.clone());
  return res;
}
