import { useEffect, useState } from "react";
import { useApp } from "../lib/app";
import { Link, useLocation } from "../lib/router";
import { HealthDot } from "./HealthDot";
import { openSearchBox } from "./SearchBox";

export const NAV = [
  { to: "/", label: "Journal" },
  { to: "/summary", label: "Summary" },
  { to: "/insights", label: "Insights" },
  { to: "/budget", label: "Budget" },
  { to: "/ledger", label: "Ledger" },
  { to: "/trends", label: "Trends" },
  { to: "/merchants", label: "Merchants" },
  { to: "/income", label: "Income" },
  { to: "/tax", label: "Tax", flag: "tax_tracking_enabled" as const },
  { to: "/search", label: "Search" },
  { to: "/review", label: "Review" },
  { to: "/activity", label: "Activity" },
  { to: "/rules", label: "Rules" },
  { to: "/backup", label: "Backup" },
  { to: "/receipts", label: "Receipts" },
  { to: "/statements", label: "Statements" },
  { to: "/upload", label: "Upload" },
  { to: "/settings", label: "Settings" },
];

export function Header() {
  const { health, config } = useApp();
  const { path } = useLocation();
  // On a phone the menu is a button that opens the whole list; it closes when a page is picked.
  const [menuOpen, setMenuOpen] = useState(false);
  const current = path === "/journal" ? "/" : path;
  const here = NAV.find((n) => n.to === current)?.label;
  // biome-ignore lint/correctness/useExhaustiveDependencies: path is the trigger
  useEffect(() => setMenuOpen(false), [path]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setMenuOpen(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [menuOpen]);
  return (
    <>
      {config.demo_mode && (
        <div className="demo-banner" role="note" data-testid="demo-banner">
          <strong>Demo</strong> — read-only: you can look around, but changes are turned off.
        </div>
      )}
      <header className="topbar">
        <div className="topbar-inner">
          <Link to="/" className="brand">
            <span className="brand-mark" aria-hidden="true" />
            Finance Journal
          </Link>
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
            <button
              type="button"
              className="btn menu-btn"
              aria-expanded={menuOpen}
              aria-controls="main-nav"
              onClick={() => setMenuOpen((o) => !o)}
              data-testid="menu-button"
            >
              <span aria-hidden="true">{menuOpen ? "✕" : "☰"}</span> Menu
              {here && <span className="sr-only"> (now on {here})</span>}
            </button>
          </div>
        </div>
        <nav id="main-nav" className={`nav${menuOpen ? " nav-open" : ""}`} aria-label="Main">
          <ul>
            {NAV.filter((n) => !n.flag || config[n.flag]).map((n) => (
              <li key={n.to}>
                <Link to={n.to} aria-current={current === n.to ? "page" : undefined}>
                  {n.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </header>
    </>
  );
}
