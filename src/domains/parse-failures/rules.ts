/** Pure parse-failure rules: row → API shapes, retry filters. */
import type { parseFailures } from "../../db/schema";
import { readFailureDetail } from "../../ingest/quarantine";
import { suggestValues } from "../templates/engine";
import { amountForms, standsAlone } from "../templates/engine/amount";
import { datesIn, findDate } from "../templates/engine/dates";
import { matchText } from "../templates/engine/match";
import { type Cents, formatCents } from "../../lib/money";
import type { ParseFailureDetail, ParseFailureSummary } from "./schemas";

export type FailureRow = typeof parseFailures.$inferSelect;

const STATUSES = new Set(["quarantined", "recovered", "resolved", "dismissed"]);

export function toSummary(row: FailureRow): ParseFailureSummary {
  const d = readFailureDetail(row);
  return {
    id: row.id,
    received_at: row.created_at,
    updated_at: row.updated_at,
    from_email: row.from_email,
    subject: row.subject,
    forwarded_to: row.forwarded_to,
    email_date: row.email_date,
    detected_institution: row.institution,
    failure_stage: row.failure_stage,
    status: (STATUSES.has(row.status) ? row.status : "quarantined") as ParseFailureSummary["status"],
    recovered_date_file_name: row.resolved_tx,
    alert_classifier_result:
      typeof d.alert_classifier_result === "boolean" ? d.alert_classifier_result : null,
    error: typeof d.error === "string" ? d.error : null,
  };
}

/** The email's sent day from `MM/DD/YYYY HH:MM ZZZ`, YYYY-MM-DD. */
const sentIsoOf = (emailDate: string | null) => {
  const m = emailDate?.match(/^(\d{2})\/(\d{2})\/(\d{4})/);
  return m ? `${m[3]}-${m[1]}-${m[2]}` : null;
};

/** The year of a stored email date, else undefined. */
export const yearOf = (emailDate: string | null) => {
  const sent = sentIsoOf(emailDate);
  return sent ? Number(sent.slice(0, 4)) : undefined;
};

export function toDetail(row: FailureRow): ParseFailureDetail {
  const sent = sentIsoOf(row.email_date) ?? row.created_at.slice(0, 10);
  return {
    ...toSummary(row),
    suggestion: suggestValues(row.body ?? "", sent),
    body: row.body ?? "",
    from_name: row.from_name,
    to_email: row.to_email,
    raw_key: row.raw_key,
  };
}

/** Retry-all filter: sender-domain suffix and/or institution (case-insensitive). */
export function matchesFilter(
  row: Pick<FailureRow, "from_email" | "institution">,
  f: { from_domain?: string | null; institution?: string | null },
): boolean {
  if (f.from_domain) {
    const domain = (row.from_email ?? "").split("@")[1]?.toLowerCase() ?? "";
    const want = f.from_domain.toLowerCase().replace(/^@/, "");
    if (!(domain === want || domain.endsWith(`.${want}`))) return false;
  }
  if (f.institution && (row.institution ?? "").toLowerCase() !== f.institution.toLowerCase()) return false;
  return true;
}

/** A typed value of a resolve that the email does not print (`field`: amount or date). */
export interface Unseen {
  field: "amount" | "date";
  msg: string;
}

/**
 * The typed amount and date the email does not print, read the way a learned template finds them
 * (every printed form of the amount standing alone; the date in any format the templates read,
 * or the day the email was sent; an email that prints no date leaves the date unchecked). An
 * empty body says nothing either way: no warning.
 */
export function unseenValues(
  body: string,
  sentIso: string,
  typed: { amount: Cents; date: string },
): Unseen[] {
  const lines = matchText(body).split("\n");
  if (!lines.some((l) => l.trim() !== "")) return [];
  const out: Unseen[] = [];
  const printed = amountForms(typed.amount).some((form) =>
    lines.some((l) => {
      for (let at = l.indexOf(form.text); at >= 0; at = l.indexOf(form.text, at + 1)) {
        if (standsAlone(l, at, at + form.text.length)) return true;
      }
      return false;
    }),
  );
  if (!printed) {
    out.push({
      field: "amount",
      msg: `the amount ${formatCents(typed.amount)} does not appear in the email`,
    });
  }
  // A date is checked against the dates the email prints; one that prints none says nothing.
  const printsDates = lines.some((l) => datesIn(l, sentIso).length > 0);
  if (printsDates && typed.date !== sentIso && !lines.some((l) => findDate(l, typed.date, sentIso))) {
    out.push({
      field: "date",
      msg: `the date ${typed.date} does not appear in the email and is not the day it was sent`,
    });
  }
  return out;
}
