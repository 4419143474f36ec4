// Finance Journal's service worker: the installed app's share target, and an app shell that opens
// offline showing the last data it loaded.
//  - POST /share (the manifest's share_target): the shared files are kept in the "fj-share" cache
//    and the page /share uploads them with the person's session through the normal API, so a
//    share is the same upload as a drop on the page (same checks, same outcomes in words).
//  - The shell (the page, its hashed assets, icons) is cached as it is fetched; navigations are
//    network-first with the cached page as the fallback.
//  - A few reads the journal needs to draw a month (config, categories, health, journal, session)
//    are network-first and kept, so offline the last loaded month still shows; responses that
//    came from the cache carry `X-FJ-Offline: 1`. Nothing else under /api is cached, no write is
//    ever touched, and sign-out clears the kept reads (the page posts "forget").
const SHELL = "fj-shell-v1";
const DATA = "fj-data-v1";
const SHARE = "fj-share";
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
    event.respondWith(receiveShare(req));
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

async function receiveShare(req) {
  let count = 0;
  try {
    const form = await req.formData();
    const cache = await caches.open(SHARE);
    const stamp = Date.now();
    for (const value of form.getAll("file")) {
      if (typeof value === "string") continue;
      const key = `/share-inbox/${stamp}-${count++}`;
      await cache.put(
        key,
        new Response(value, {
          headers: {
            "Content-Type": value.type || "application/octet-stream",
            "X-File-Name": encodeURIComponent(value.name || "shared file"),
          },
        }),
      );
    }
  } catch {
    return Response.redirect("/share?error=unreadable", 303);
  }
  return Response.redirect(`/share?received=${count}`, 303);
}

async function networkFirst(req, cacheName) {
  const cache = await caches.open(cacheName);
  try {
    const res = await fetch(req);
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
    const res = await fetch(req);
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
