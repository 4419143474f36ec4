import { useEffect, useState } from "react";
import { api, unwrap } from "../api/client";
import type { Journal, JournalDay } from "../api/types";
import { Money } from "../components/Money";
import { MonthPicker } from "../components/MonthPicker";
import { MtdChart } from "../components/MtdChart";
import { EmptyMonth, GettingStarted } from "../components/FirstRun";
import { ErrorNotice, Loading } from "../components/States";
import { TxDrawer } from "../components/TxDrawer";
import { TxRow } from "../components/TxRow";
import { count, dayLabel, monthLabel, money, SPENDING_TYPES } from "../lib/format";
import { useMonthParam } from "../lib/month";
import { lastJournalMonth, rememberJournalMonth } from "../lib/pwa";
import { useLocation } from "../lib/router";
import { useApi } from "../lib/useApi";
import { SummarizeMonth } from "./insights/SummarizeMonth";

export function JournalPage() {
  const { month: asked, setMonth } = useMonthParam();
  const { query } = useLocation();
  // Offline with no month asked for: the month this device last drew (kept by the service worker).
  const month = !navigator.onLine && !query.get("month") ? (lastJournalMonth() ?? asked) : asked;
  const journal = useApi(() => unwrap(api.GET("/api/v1/journal", { params: { query: { month } } })), month);
  useEffect(() => {
    if (journal.data && navigator.onLine) rememberJournalMonth(month);
  }, [journal.data, month]);
  const [open, setOpen] = useState<string | null>(null);
  const j = journal.data;
  return (
    <section aria-labelledby="journal-h">
      <div className="page-head">
        <h1 id="journal-h">Journal</h1>
        <MonthPicker value={month} onChange={setMonth} />
      </div>
      <ErrorNotice error={journal.error} onRetry={journal.reload} />
      {!j && journal.loading && <Loading rows={5} />}
      {j && <GettingStarted open={j.days.length === 0} />}
      {j && j.days.length > 0 && <MonthOverview journal={j} />}
      {j && j.days.length > 0 && <SummarizeMonth month={month} onDone={journal.reload} />}
      {j && j.days.length === 0 && <EmptyMonth month={month} />}
      {j && (
        <ol className="days" aria-label={`Days of ${monthLabel(month)}, newest first`}>
          {j.days.map((d) => (
            <DayCard key={d.date} day={d} ceiling={j.budget_ceiling} onOpen={setOpen} />
          ))}
        </ol>
      )}
      {open && <TxDrawer txId={open} onClose={() => setOpen(null)} onChanged={journal.reload} />}
    </section>
  );
}

function MonthOverview({ journal }: { journal: Journal }) {
  const ceiling = journal.budget_ceiling;
  const left = ceiling !== null ? ceiling - journal.month_total : null;
  // The summary counts spending rows only; say both so the two pages agree.
  const spent = journal.days.reduce(
    (n, d) => n + d.transactions.filter((t) => SPENDING_TYPES.has(t.transaction_type ?? "")).length,
    0,
  );
  return (
    <div className="card overview" data-testid="journal-overview">
      <div className="stats">
        <div className="stat">
          <span className="stat-label">Spent in {monthLabel(journal.month)}</span>
          <Money value={journal.month_total} className="stat-value" />
          <span className="stat-sub" data-testid="journal-count">
            {count(journal.transaction_count, "transaction")}
            {spent !== journal.transaction_count && ` (${spent} of them spending)`}
          </span>
        </div>
        {ceiling !== null && left !== null && (
          <div className="stat">
            <span className="stat-label">Budget ceiling</span>
            <Money value={ceiling} className="stat-value" />
            <span className={`stat-sub ${left < 0 ? "text-danger" : ""}`}>
              {left < 0 ? `${money(-left)} over` : `${money(left)} left`}
            </span>
          </div>
        )}
      </div>
      {journal.days.length > 0 && <MtdChart month={journal.month} days={journal.days} ceiling={ceiling} />}
    </div>
  );
}

function DayCard({
  day,
  ceiling,
  onOpen,
}: {
  day: JournalDay;
  ceiling: number | null;
  onOpen: (id: string) => void;
}) {
  const pct = ceiling ? Math.min(100, (day.mtd_total / ceiling) * 100) : null;
  const over = ceiling !== null && day.mtd_total > ceiling;
  return (
    <li className="card day" data-testid="journal-day" data-date={day.date}>
      <div className="day-head">
        <h2 className="day-title">{dayLabel(day.date)}</h2>
        <Money value={day.day_total} className="day-total" />
      </div>
      <div className="day-sub">
        <span>
          {day.count} {day.count === 1 ? "transaction" : "transactions"}
          {day.deposit_total > 0 && (
            <>
              {" · "}
              <Money value={day.deposit_total} incoming /> in
            </>
          )}
        </span>
        <span className={over ? "text-danger" : ""}>
          Month to date <Money value={day.mtd_total} />
        </span>
      </div>
      {pct !== null && (
        <div
          className={`ceiling-bar${over ? " over" : ""}`}
          role="img"
          aria-label={`${Math.round((day.mtd_total / (ceiling ?? 1)) * 100)}% of the monthly ceiling`}
        >
          <span style={{ width: `${pct}%` }} />
        </div>
      )}
      {day.summary && <p className="day-summary">{day.summary}</p>}
      <ul className="tx-list">
        {day.transactions.map((t) => (
          <TxRow key={t.tx_id} tx={t} onOpen={onOpen} />
        ))}
      </ul>
    </li>
  );
}
