import { useEffect } from "react";
import { Link, useLocation } from "./lib/router";
import { ActivityPage } from "./pages/ActivityPage";
import { BackupPage } from "./pages/BackupPage";
import { BudgetEditorPage } from "./pages/BudgetEditorPage";
import { BudgetPage } from "./pages/BudgetPage";
import { IncomePage } from "./pages/IncomePage";
import { InsightsPage } from "./pages/InsightsPage";
import { LedgerPage } from "./pages/LedgerPage";
import { MerchantsPage } from "./pages/MerchantsPage";
import { RulesPage } from "./pages/RulesPage";
import { TrendsPage } from "./pages/TrendsPage";
import { JournalPage } from "./pages/JournalPage";
import { IgnoredEmailsPage } from "./pages/IgnoredEmailsPage";
import { ReviewPage } from "./pages/ReviewPage";
import { SearchPage } from "./pages/SearchPage";
import { SettingsPage } from "./pages/SettingsPage";
import { StatementsPage } from "./pages/StatementsPage";
import { ReceiptsPage } from "./pages/ReceiptsPage";
import { SummaryPage } from "./pages/SummaryPage";
import { TaxPage } from "./pages/TaxPage";
import { UploadPage } from "./pages/UploadPage";

const TITLES: Record<string, string> = {
  "/": "Journal",
  "/journal": "Journal",
  "/summary": "Summary",
  "/insights": "Insights",
  "/search": "Search",
  "/review": "Needs review",
  "/review/ignored": "Ignored emails",
  "/activity": "Activity",
  "/upload": "Upload",
  "/statements": "Statements",
  "/receipts": "Receipts",
  "/settings": "Settings",
  "/budget": "Budget",
  "/budget/edit": "Edit budget",
  "/ledger": "Ledger",
  "/trends": "Trends",
  "/merchants": "Merchants",
  "/income": "Income statement",
  "/rules": "Rules",
  "/backup": "Backup and restore",
  "/tax": "Tax pack",
};

export function Routes() {
  const { path } = useLocation();
  useEffect(() => {
    document.title = `${TITLES[path] ?? "Not found"} · Finance Journal`;
  }, [path]);
  switch (path) {
    case "/":
    case "/journal":
      return <JournalPage />;
    case "/summary":
      return <SummaryPage />;
    case "/insights":
      return <InsightsPage />;
    case "/search":
      return <SearchPage />;
    case "/review":
      return <ReviewPage />;
    case "/review/ignored":
      return <IgnoredEmailsPage />;
    case "/activity":
      return <ActivityPage />;
    case "/upload":
      return <UploadPage />;
    case "/statements":
      return <StatementsPage />;
    case "/receipts":
      return <ReceiptsPage />;
    case "/settings":
      return <SettingsPage />;
    case "/budget":
      return <BudgetPage />;
    case "/budget/edit":
      return <BudgetEditorPage />;
    case "/ledger":
      return <LedgerPage />;
    case "/trends":
      return <TrendsPage />;
    case "/merchants":
      return <MerchantsPage />;
    case "/income":
      return <IncomePage />;
    case "/rules":
      return <RulesPage />;
    case "/backup":
      return <BackupPage />;
    case "/tax":
      return <TaxPage />;
    default:
      return (
        <section className="page-narrow">
          <h1>Page not found</h1>
          <p>
            Nothing lives at <code>{path}</code>. <Link to="/">Back to the journal</Link>
          </p>
        </section>
      );
  }
}
