import { useEffect, useState } from "react";
import { api, unwrap } from "../api/client";
import { useApp } from "../lib/app";
import { Link, useLocation } from "../lib/router";
import { HealthDot } from "./HealthDot";
import { openSearchBox } from "./SearchBox";
import { ErrorNotice } from "./States";
import { useAction } from "./useAction";

type NavItem = { to: string; label: string; short?: string; flag?: "tax_tracking_enabled" };

/**
 * The pages, in a person's order: the daily loop first, the rest under plain headings. Desktop
 * shows every group in a side bar (each page one click away); a phone keeps the daily loop in a
 * bottom bar and the rest in one menu.
 */
export const NAV_GROUPS: { heading: string; daily?: boolean; items: NavItem[] }[] = [
  {
    heading: "Every day",
    daily: true,
    items: [
      { to: "/", label: "Journal" },
      { to: "/review", label: "Needs review", short: "Review" },
      { to: "/budget", label: "Budget" },
      { to: "/search", label: "Search" },
    ],
  },
  {
    heading: "Reports",
    items: [
      { to: "/summary", label: "Summary" },
      { to: "/insights", label: "Insights" },
      { to: "/trends", label: "Trends" },
      { to: "/merchants", label: "Merchants" },
      { to: "/income", label: "Income" },
      { to: "/ledger", label: "Ledger" },
      { to: "/tax", label: "Tax", flag: "tax_tracking_enabled" },
    ],
  },
  {
    heading: "Add data",
    items: [
      { to: "/upload", label: "Upload" },
      { to: "/statements", label: "Statements" },
      { to: "/receipts", label: "Receipts" },
    ],
  },
  {
    heading: "Set up",
    items: [
      { to: "/rules", label: "Rules" },
      { to: "/activity", label: "Activity" },
      { to: "/backup", label: "Backup" },
      { to: "/settings", label: "Settings" },
    ],
  },
];

export const NAV: NavItem[] = NAV_GROUPS.flatMap((g) => g.items);

/** The nav entry a path belongs to (sub-pages such as /budget/edit belong to their parent). */
export function navEntry(path: string): NavItem | undefined {
  const p = path === "/journal" ? "/" : path;
  return NAV.find((n) => n.to === p) ?? NAV.find((n) => n.to !== "/" && p.startsWith(`${n.to}/`));
}

/** The owner's own read-only switch (config demo_mode) is on: say so, and offer to turn it off. */
function ReadOnlyBanner() {
  const { setConfig } = useApp();
  const { busy, error, run } = useAction();
  const allow = () =>
    run(async () => {
      setConfig(await unwrap(api.PUT("/api/v1/config", { body: { demo_mode: false } })));
    }, "Changes are allowed again");
  return (
    <div className="demo-banner" role="note" data-testid="read-only-banner">
      <strong>Read-only</strong> — you switched changes off for this journal.{" "}
      <button type="button" className="btn btn-small" onClick={allow} disabled={busy}>
        Allow changes again
      </button>
      <ErrorNotice error={error} />
    </div>
  );
}

export function Header() {
  const { health, config } = useApp();
  const { path } = useLocation();
  // On a phone the rest of the pages sit behind "More"; the menu closes when a page is picked.
  const [menuOpen, setMenuOpen] = useState(false);
  const here = navEntry(path);
  const current = here?.to;
  const shown = (n: NavItem) => !n.flag || config[n.flag];
  const daily = NAV_GROUPS[0]?.items ?? [];
  const inDaily = daily.some((n) => n.to === current);
  // biome-ignore lint/correctness/useExhaustiveDependencies: path is the trigger
  useEffect(() => setMenuOpen(false), [path]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setMenuOpen(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [menuOpen]);
  const link = (n: NavItem, label = n.label) => (
    <Link to={n.to} aria-current={current === n.to ? "page" : undefined}>
      {label}
    </Link>
  );
  return (
    <>
      {config.demo_mode && !config.read_only_switch && (
        <div className="demo-banner" role="note" data-testid="demo-banner">
          <strong>Demo</strong> — read-only: you can look around, but changes are turned off.
        </div>
      )}
      {config.read_only_switch && <ReadOnlyBanner />}
      <header className="topbar">
        <div className="topbar-inner">
          <Link to="/" className="brand">
            <span className="brand-mark" aria-hidden="true" />
            Finance Journal
          </Link>
          {here && (
            <span className="topbar-here" data-testid="current-place">
              {here.label}
            </span>
          )}
          <div className="topbar-tools">
            <button
              type="button"
              className="btn btn-ghost search-btn"
              onClick={openSearchBox}
              aria-keyshortcuts="/ Control+K"
              aria-label="Find"
              data-testid="open-search-box"
            >
              <span aria-hidden="true">⌕</span> <span className="search-btn-text">Find</span>{" "}
              <kbd className="kbd-hint">/</kbd>
            </button>
            <HealthDot health={health} />
          </div>
        </div>
      </header>
      <nav
        id="main-nav"
        className={`nav${menuOpen ? " nav-open" : ""}${config.demo_mode ? " nav-demo" : ""}`}
        aria-label="Main"
      >
        {NAV_GROUPS.map((g) => {
          const items = g.items.filter(shown);
          return (
            <div key={g.heading} className={`nav-group${g.daily ? " nav-daily" : ""}`}>
              <h2 className="nav-heading">{g.heading}</h2>
              <ul>
                {items.map((n) => (
                  <li key={n.to}>{link(n)}</li>
                ))}
              </ul>
            </div>
          );
        })}
      </nav>
      <nav className="bottombar" aria-label="Every day">
        <ul>
          {daily.map((n) => (
            <li key={n.to}>{link(n, n.short ?? n.label)}</li>
          ))}
          <li>
            <button
              type="button"
              className={`bottombar-more${!inDaily && here ? " is-here" : ""}`}
              aria-expanded={menuOpen}
              aria-controls="main-nav"
              onClick={() => setMenuOpen((o) => !o)}
              data-testid="menu-button"
            >
              {menuOpen ? "Close" : !inDaily && here ? here.label : "More"}
              {!inDaily && here && <span className="sr-only"> (now here; more pages)</span>}
            </button>
          </li>
        </ul>
      </nav>
      {menuOpen && (
        <button
          type="button"
          className="nav-scrim"
          aria-label="Close the menu"
          onClick={() => setMenuOpen(false)}
        />
      )}
    </>
  );
}
