import { useEffect } from "react";
import { useApp } from "../lib/app";
import { Link, useLocation } from "../lib/router";
import { HealthDot } from "./HealthDot";

export const NAV = [
  { to: "/", label: "Journal" },
  { to: "/summary", label: "Summary" },
  { to: "/insights", label: "Insights" },
  { to: "/budget", label: "Budget" },
  { to: "/ledger", label: "Ledger" },
  { to: "/trends", label: "Trends" },
  { to: "/merchants", label: "Merchants" },
  { to: "/income", label: "Income" },
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
  // On a phone the nav scrolls sideways: keep the current page's tab in view.
  useEffect(() => {
    const reveal = () =>
      document
        .querySelector(`.nav a[href="${path === "/journal" ? "/" : path}"]`)
        ?.scrollIntoView({ block: "nearest", inline: "nearest" });
    reveal();
    window.addEventListener("resize", reveal);
    return () => window.removeEventListener("resize", reveal);
  }, [path]);
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
          <HealthDot health={health} />
        </div>
        <nav className="nav" aria-label="Main">
          <ul>
            {NAV.map((n) => (
              <li key={n.to}>
                <Link to={n.to} aria-current={path === n.to ? "page" : undefined}>
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
