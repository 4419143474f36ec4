import { useEffect } from "react";
import { Link, useLocation } from "./lib/router";
import { ActivityPage } from "./pages/ActivityPage";
import { JournalPage } from "./pages/JournalPage";
import { ReviewPage } from "./pages/ReviewPage";
import { SearchPage } from "./pages/SearchPage";
import { SettingsPage } from "./pages/SettingsPage";
import { SummaryPage } from "./pages/SummaryPage";
import { UploadPage } from "./pages/UploadPage";

const TITLES: Record<string, string> = {
  "/": "Journal",
  "/journal": "Journal",
  "/summary": "Summary",
  "/search": "Search",
  "/review": "Needs review",
  "/activity": "Activity",
  "/upload": "Upload",
  "/settings": "Settings",
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
    case "/search":
      return <SearchPage />;
    case "/review":
      return <ReviewPage />;
    case "/activity":
      return <ActivityPage />;
    case "/upload":
      return <UploadPage />;
    case "/settings":
      return <SettingsPage />;
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
