// Short names for the statement shapes of the generated schema.
import type { components } from "../../api/schema";

type S = components["schemas"];
export type StatementSummary = S["StatementSummaryItem"];
export type StatementDetail = S["StatementDetailResponse"];
export type StatementRow = S["StatementTransactionItem"];
export type UploadResponse = S["StatementUploadResponse"];
export type ImportResult = S["ImportResponse"];
export type RowAction = "import" | "skip" | "enrich" | "update";

export const TIER_LABEL: Record<StatementRow["reconcile_tier"], { label: string; tone: string }> = {
  new: { label: "New", tone: "tag-ok" },
  matched: { label: "Matched", tone: "" },
  ambiguous: { label: "Ambiguous", tone: "tag-warn" },
  suspected_duplicate: { label: "Suspected duplicate", tone: "tag-danger" },
  previously_imported: { label: "Imported before", tone: "" },
};

export const STATUS_LABEL: Record<StatementSummary["status"], string> = {
  pending_review: "Pending review",
  in_progress: "In progress",
  complete: "Complete",
};

/** Actions that make sense for a row: enrich/update need a stored transaction. */
export const actionsFor = (row: StatementRow): RowAction[] =>
  row.db_date_file_name ? ["skip", "enrich", "update", "import"] : ["import", "skip"];
