// A small history router: the Worker (and Pages) answer every path with index.html.
import { type AnchorHTMLAttributes, type MouseEvent, useEffect, useSyncExternalStore } from "react";

const listeners = new Set<() => void>();
function emit() {
  for (const fn of listeners) fn();
}

// A form with unsaved changes registers what to ask before the page goes (a link, Back, a reload):
// the person confirms, or stays where they were with their changes.
let leaveQuestion: string | null = null;
let here = typeof window !== "undefined" ? window.location.pathname + window.location.search : "/";
const mayLeave = () => !leaveQuestion || window.confirm(leaveQuestion);

if (typeof window !== "undefined")
  window.addEventListener("popstate", () => {
    const to = window.location.pathname + window.location.search;
    if (to !== here && !mayLeave()) {
      // Back (or Forward) already moved the address: put it back, and the form stays.
      window.history.pushState(null, "", here);
      return;
    }
    here = to;
    emit();
  });

/** While `question` is set, leaving the page (in the app, or closing the tab) asks it first. */
export function useLeaveGuard(question: string | null) {
  useEffect(() => {
    if (!question) return;
    leaveQuestion = question;
    const onUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = question;
    };
    window.addEventListener("beforeunload", onUnload);
    return () => {
      if (leaveQuestion === question) leaveQuestion = null;
      window.removeEventListener("beforeunload", onUnload);
    };
  }, [question]);
}

function subscribe(fn: () => void) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function navigate(to: string, opts: { replace?: boolean } = {}): boolean {
  const now = window.location.pathname + window.location.search;
  if (to === now) return true;
  if (!mayLeave()) return false;
  if (opts.replace) window.history.replaceState(null, "", to);
  else window.history.pushState(null, "", to);
  here = to;
  emit();
  return true;
}

function snapshot() {
  return window.location.pathname + window.location.search;
}

export function useLocation(): { path: string; query: URLSearchParams } {
  const href = useSyncExternalStore(subscribe, snapshot);
  const url = new URL(href, window.location.origin);
  return { path: url.pathname.replace(/\/+$/, "") || "/", query: url.searchParams };
}

/** Replaces (or pushes) the current query string with these values; empty ones are dropped. */
export function setQuery(values: Record<string, string | undefined>, opts: { replace?: boolean } = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v) q.set(k, v);
  const s = q.toString();
  navigate(window.location.pathname + (s ? `?${s}` : ""), opts);
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string };

export function Link({ to, onClick, ...rest }: LinkProps) {
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    if (navigate(to)) window.scrollTo(0, 0);
  };
  return <a href={to} onClick={handle} {...rest} />;
}
