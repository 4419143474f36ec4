import { Link } from "../lib/router";
import { AccountSection } from "./settings/AccountSection";
import { AlertIntakeSection } from "./settings/AlertIntakeSection";
import { ConnectedAppsSection } from "./settings/ConnectedAppsSection";
import { IntelligenceSection } from "./settings/IntelligenceSection";
import { PreferencesSection } from "./settings/PreferencesSection";
import { SessionsSection } from "./settings/SessionsSection";
import { TokensSection } from "./settings/TokensSection";

const SECTIONS = [
  ["account", "Account"],
  ["sessions", "Sessions"],
  ["tokens", "API tokens"],
  ["connected-apps", "Connected apps"],
  ["preferences", "Preferences"],
  ["alerts", "Alert emails"],
  ["intelligence", "Intelligence"],
] as const;

export function SettingsPage() {
  return (
    <section aria-labelledby="settings-h">
      <div className="page-head">
        <h1 id="settings-h">Settings</h1>
      </div>
      <nav className="subnav" aria-label="Settings sections">
        {SECTIONS.map(([id, label]) => (
          <a key={id} href={`#${id}`}>
            {label}
          </a>
        ))}
        <Link to="/activity">Activity</Link>
      </nav>
      <AccountSection />
      <SessionsSection />
      <TokensSection />
      <ConnectedAppsSection />
      <PreferencesSection />
      <AlertIntakeSection />
      <IntelligenceSection />
      {/* Categories and merchant rules have one home: the Rules page. */}
      <div className="card" id="categories">
        <h2>Categories and merchant rules</h2>
        <p className="muted small">
          Adding, renaming and deleting categories, and the rules that file a merchant under one, are on the{" "}
          <Link to="/rules">Rules</Link> page.
        </p>
      </div>
    </section>
  );
}
