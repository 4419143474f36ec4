// The installed app: the service worker (public/sw.js: share target and offline shell), whether
// the device is online, and what the share page needs to read the files a share left behind.
import { useEffect, useState } from "react";

export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator) || !import.meta.env.PROD) return;
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
      // No service worker (a private window, an old browser): the dashboard works without one.
    });
  });
}

/** Sign-out: the reads kept for offline use go with the session. */
export function forgetOfflineData(): void {
  navigator.serviceWorker?.controller?.postMessage("forget");
}

export function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener("online", on);
    window.addEventListener("offline", off);
    return () => {
      window.removeEventListener("online", on);
      window.removeEventListener("offline", off);
    };
  }, []);
  return online;
}

const LAST_MONTH = "fj:last-journal-month";
/** The journal month this device last drew (shown offline when no month is asked for). */
export const rememberJournalMonth = (month: string) => {
  try {
    localStorage.setItem(LAST_MONTH, month);
  } catch {
    // storage off: offline shows the current month
  }
};
export const lastJournalMonth = (): string | null => {
  try {
    return localStorage.getItem(LAST_MONTH);
  } catch {
    return null;
  }
};

export interface SharedFile {
  key: string;
  file: File;
  /** When the share sheet handed it over (ms since the epoch). */
  sharedAt: number;
}

const SHARE_CACHE = "fj-share";
/** As public/sw.js: a share not kept within a day is dropped unread. */
const SHARE_TTL_MS = 24 * 3600 * 1000;

/**
 * Files a share left for this page (the service worker keeps them until the owner keeps or drops
 * them here); one past its time is dropped instead.
 */
export async function sharedFiles(now = Date.now()): Promise<SharedFile[]> {
  if (!("caches" in window)) return [];
  const cache = await caches.open(SHARE_CACHE);
  const out: SharedFile[] = [];
  for (const req of await cache.keys()) {
    const res = await cache.match(req);
    if (!res) continue;
    const sharedAt = Number(res.headers.get("X-Shared-At"));
    if (!(now - sharedAt < SHARE_TTL_MS)) {
      await cache.delete(req);
      continue;
    }
    const blob = await res.blob();
    const name = decodeURIComponent(res.headers.get("X-File-Name") ?? "shared file");
    out.push({ key: req.url, file: new File([blob], name, { type: blob.type }), sharedAt });
  }
  return out;
}

export async function dropSharedFile(key: string): Promise<void> {
  if ("caches" in window) await (await caches.open(SHARE_CACHE)).delete(key);
}

export type ShareKind = "email" | "receipt" | "statement" | "statement-or-receipt" | "unknown";

/** Where a shared file belongs, from its type and name (a PDF may be a statement or a receipt). */
export function shareKind(file: File): ShareKind {
  const name = file.name.toLowerCase();
  const ext = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1) : "";
  if (file.type === "message/rfc822" || ext === "eml") return "email";
  if (file.type.startsWith("image/") || ext === "heic" || ext === "heif") return "receipt";
  if (["csv", "ofx", "qfx", "qif", "xml"].includes(ext) || file.type === "text/csv") return "statement";
  if (file.type === "application/pdf" || ext === "pdf") return "statement-or-receipt";
  return "unknown";
}
