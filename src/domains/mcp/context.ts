/** What a tool receives: the service context, whether the caller may write, and the ledger. */
import type { ServiceCtx } from "../../lib/context";
import type { ImageLike } from "../activity/rules";

/** One activity-ledger entry of a write tool (the shape the HTTP routes stage). */
export interface JournalEntry {
  staged?: {
    kind: string;
    resourceId: string;
    before: ImageLike | null;
    after: ImageLike | null;
    summary?: string;
  };
  note?: { resourceId?: string; summary?: string };
}

export interface ToolContext {
  ctx: ServiceCtx;
  /** A read+write token outside demo mode: only then are write tools listed and callable. */
  canWrite: boolean;
  /** Journals one write under `mcp.<tool>`; returns the entry id (for an undo). */
  journal(operationId: string, entry: JournalEntry): string;
}
