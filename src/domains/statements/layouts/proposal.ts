/**
 * The model proposes a PDF's column marks (only when document parsing is routed to a provider;
 * otherwise nothing is sent). The balance check is the judge: the marks are read like a person's,
 * and the proposal is shown only when the rows add up to the printed opening and closing balances.
 * Anything else (no answer, a malformed one, cells not on the page, rows that do not balance) drops
 * the proposal with the reason in words, and the person marks the columns by hand. Never saves:
 * the person confirms the marks through the ordinary teach route.
 */
import type { z } from "zod";
import { asAiError, aiErrorWords } from "../../../ai/provider";
import { providerForTask } from "../../../ai/routing";
import type { ServiceCtx } from "../../../lib/context";
import { log } from "../../../lib/log";
import { fromCents } from "../../../lib/money";
import { getConfig } from "../../config/service";
import { toLines } from "../parsers/layout";
import { readTaught } from "./apply";
import { findHeader } from "./fingerprint";
import { marksFromAnswer, PROPOSE_SYSTEM, promptLines, proposeTool } from "./propose";
import type { LayoutProposalResponse } from "./schemas";
import { pdfTextOf } from "./service";

type LayoutProposal = z.infer<typeof LayoutProposalResponse>;

const BY_HAND = "mark the columns by hand.";

export async function proposeLayout(
  ctx: ServiceCtx,
  stmt: { id: string; file_kind: string; r2_key: string; uploaded_at: string },
): Promise<LayoutProposal> {
  const routed = providerForTask(ctx.env, await getConfig(ctx), "document_parsing", {
    timeoutMs: 60_000,
    maxRetries: 0,
  });
  if (!routed.ok) return { asked: false, proposal: null, reason: routed.reason };
  const text = await pdfTextOf(ctx, stmt);
  const lines = toLines(text.items);
  const { text: user, shown } = promptLines(lines);
  if (!shown.length) return { asked: false, proposal: null, reason: "The page holds no text to mark." };
  // The log names the stage only: the reason may quote the statement's text.
  const drop = (stage: string, why: string): LayoutProposal => {
    log("info", "statement_layout_proposal_dropped", { statement_id: stmt.id, stage });
    return { asked: true, proposal: null, reason: `The model's proposal was dropped: ${why}; ${BY_HAND}` };
  };
  let answer: Record<string, unknown>;
  try {
    answer = await routed.provider.callTool({ system: PROPOSE_SYSTEM, user, tool: proposeTool });
  } catch (err) {
    return drop("model", aiErrorWords(asAiError(err)));
  }
  const got = marksFromAnswer(answer, shown);
  if (!got.ok) return drop("answer", got.why);
  const header = findHeader(lines, got.marks);
  if (!header) return drop("header", "no header line (column titles) stands above the rows its columns read");
  const read = readTaught(
    text,
    { marks: got.marks, header: header.words, institution: "Other" },
    Number(stmt.uploaded_at.slice(0, 4)),
  );
  if (!read?.statement.rows.length) return drop("rows", "its columns read no rows");
  const { balance } = read.statement;
  if (!read.printedOpening || !read.printedClosing || balance.opening === null || balance.closing === null)
    return drop("printed", "the page prints no opening and closing balance to check its rows against");
  if (!balance.ok)
    return drop(
      "balance",
      `the rows its columns read do not add up: ${balance.warnings[0] ?? "balance check failed"}`,
    );
  return {
    asked: true,
    proposal: {
      marks: got.marks,
      model: routed.model,
      rows: read.statement.rows.length,
      opening: fromCents(balance.opening),
      closing: fromCents(balance.closing),
    },
    reason: null,
  };
}
