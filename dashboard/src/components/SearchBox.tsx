// The search box everywhere: "/" or Ctrl+K (or the header's Find button) opens it; type a
// merchant, category, month, amount or page name and jump there.
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import { api, unwrap } from "../api/client";
import { useApp } from "../lib/app";
import { currentMonth, money, monthLabel } from "../lib/format";
import { parseAmount, parseMonth, searchFor } from "../lib/links";
import { navigate } from "../lib/router";
import { NAV } from "./Header";

const OPEN_EVENT = "fj:open-search-box";

export function openSearchBox() {
  window.dispatchEvent(new Event(OPEN_EVENT));
}

interface Choice {
  kind: string;
  label: string;
  to: string;
}

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName);
}

export function SearchBox() {
  const { config, categories } = useApp();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  const [merchants, setMerchants] = useState<string[] | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const thisMonth = currentMonth(config.timezone);

  useEffect(() => {
    const show = () => setOpen(true);
    const onKey = (e: globalThis.KeyboardEvent) => {
      const ctrlK = (e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k";
      if (ctrlK || (e.key === "/" && !e.ctrlKey && !e.metaKey && !e.altKey && !typing(e.target))) {
        e.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener(OPEN_EVENT, show);
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener(OPEN_EVENT, show);
      window.removeEventListener("keydown", onKey);
    };
  }, []);

  // Each opening starts empty with the input focused; focus goes back where it was on close.
  // Escape closes it wherever focus is (also in the frame before the input takes focus).
  useEffect(() => {
    if (!open) return;
    const before = document.activeElement as HTMLElement | null;
    setText("");
    setActive(0);
    requestAnimationFrame(() => input.current?.focus());
    const onEscape = (e: globalThis.KeyboardEvent) => {
      if (e.key === "Escape") setOpen(false);
    };
    window.addEventListener("keydown", onEscape);
    return () => {
      window.removeEventListener("keydown", onEscape);
      before?.focus?.();
    };
  }, [open]);

  // Merchant names come from this month's summary, fetched the first time the box opens (the
  // answer may arrive while typing: it only adds choices, never clears the text).
  useEffect(() => {
    if (!open || merchants !== null) return;
    unwrap(api.GET("/api/v1/summary", { params: { query: { month: thisMonth } } })).then(
      (s) => setMerchants(Object.keys(s.current.by_company)),
      () => setMerchants([]),
    );
  }, [open, merchants, thisMonth]);

  const choices = useMemo(
    () => suggest(text, thisMonth, categories, merchants ?? []),
    [text, thisMonth, categories, merchants],
  );
  if (!open) return null;

  const go = (c: Choice | undefined) => {
    if (!c) return;
    setOpen(false);
    navigate(c.to);
    window.scrollTo(0, 0);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Escape") setOpen(false);
    else if (e.key === "ArrowDown") setActive((a) => Math.min(a + 1, choices.length - 1));
    else if (e.key === "ArrowUp") setActive((a) => Math.max(a - 1, 0));
    else if (e.key === "Enter") go(choices[active]);
    else return;
    e.preventDefault();
  };

  return (
    <div className="searchbox-layer">
      <div className="searchbox-backdrop" onClick={() => setOpen(false)} aria-hidden="true" />
      <div className="searchbox" role="dialog" aria-modal="true" aria-label="Find" data-testid="search-box">
        <input
          ref={input}
          type="search"
          role="combobox"
          aria-expanded={choices.length > 0}
          aria-controls="searchbox-list"
          aria-activedescendant={choices.length ? `searchbox-${active}` : undefined}
          aria-label="Find a merchant, category, month, amount or page"
          placeholder="Merchant, category, month, amount or page…"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <div id="searchbox-list" role="listbox" aria-label="Matches" className="searchbox-list">
          {choices.map((c, i) => (
            <div
              key={`${c.kind}:${c.to}`}
              id={`searchbox-${i}`}
              role="option"
              tabIndex={-1}
              aria-selected={i === active}
              className={i === active ? "active" : undefined}
              onMouseDown={(e) => {
                e.preventDefault();
                go(c);
              }}
              onKeyDown={(e) => e.key === "Enter" && go(c)}
              onMouseEnter={() => setActive(i)}
            >
              <span className="searchbox-kind">{c.kind}</span> {c.label}
            </div>
          ))}
          {text.trim() && choices.length === 0 && <p className="muted">Nothing matches.</p>}
        </div>
        <p className="muted small searchbox-help">
          <kbd>↑</kbd> <kbd>↓</kbd> to choose, <kbd>Enter</kbd> to go, <kbd>Esc</kbd> to close.
        </p>
      </div>
    </div>
  );
}

function suggest(raw: string, thisMonth: string, categories: string[], merchants: string[]): Choice[] {
  const text = raw.trim();
  const low = text.toLowerCase();
  if (!low) return NAV.slice(0, 8).map((n) => ({ kind: "Page", label: n.label, to: n.to }));
  const out: Choice[] = [];
  const month = parseMonth(text, thisMonth);
  if (month) {
    out.push({ kind: "Month", label: `Journal for ${monthLabel(month)}`, to: `/?month=${month}` });
    out.push({ kind: "Month", label: `Summary of ${monthLabel(month)}`, to: `/summary?month=${month}` });
  }
  const amount = parseAmount(text);
  if (amount !== null) {
    const a = String(amount);
    out.push({
      kind: "Amount",
      label: `Transactions of exactly ${money(amount)} (last 12 months)`,
      to: searchFor(thisMonth, { min_amount: a, max_amount: a }),
    });
  }
  for (const c of categories.filter((c) => c.toLowerCase().includes(low)).slice(0, 5))
    out.push({ kind: "Category", label: c, to: searchFor(thisMonth, { category: c }) });
  for (const m of merchants.filter((m) => m.toLowerCase().includes(low)).slice(0, 5))
    out.push({ kind: "Merchant", label: m, to: searchFor(thisMonth, { company: m }) });
  for (const n of NAV.filter((n) => n.label.toLowerCase().includes(low)))
    out.push({ kind: "Page", label: n.label, to: n.to });
  if (amount === null)
    out.push({
      kind: "Search",
      label: `Everything mentioning “${text}”`,
      to: searchFor(thisMonth, { q: text }),
    });
  return out;
}
