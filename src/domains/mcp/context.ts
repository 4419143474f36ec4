/** What a tool receives: the service context, whether the caller may write, and its door. */
import type { ServiceCtx } from "../../lib/context";
import type { Ledger } from "../activity/journal";

export interface ToolContext {
  ctx: ServiceCtx;
  /** A read+write token outside demo mode: only then are write tools listed and callable. */
  canWrite: boolean;
  /** A write tool call's own context: its entries are journaled under `operationId` (`mcp.<tool>`). */
  door(operationId: string): { ctx: ServiceCtx; ledger: Ledger };
}
