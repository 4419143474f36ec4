import { Link } from "../lib/router";
import { AccountSection } from "./settings/AccountSection";
import { AlertIntakeSection } from "./settings/AlertIntakeSection";
import { CategoriesSection } from "./settings/CategoriesSection";
import { ConnectedAppsSection } from "./settings/ConnectedAppsSection";
import { IntelligenceSection } from "./settings/IntelligenceSection";
import { OverridesSection } from "./settings/OverridesSection";
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
  ["categories", "Categories"],
  ["overrides", "Merchant rules"],
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
      <CategoriesSection />
      <OverridesSection />
    </section>
  );
}
