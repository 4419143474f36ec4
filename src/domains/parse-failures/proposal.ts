/**
 * The model's reading of a quarantined alert, offered as a template the person confirms (the
 * statement layout proposal's rule): asked only when alert reading has a provider (the
 * categorization task, which rescues alerts) and the person turned on “Read unknown alerts with
 * AI”; every value is checked against the email's own text (`propose.ts`) and the template it would
 * teach is derived as a dry run, exactly as the resolve will. Never saves: confirming is the
 * ordinary resolve (`proposed: true`), which teaches the template as resolving by hand does.
 */
import type { z } from "zod";
import { asAiError, aiErrorWords } from "../../ai/provider";
import { providerForTask } from "../../ai/routing";
import { deriveTemplate, nameFromHost, senderHost } from "../templates/engine";
import type { ServiceCtx } from "../../lib/context";
import { log } from "../../lib/log";
import { fromCents } from "../../lib/money";
import { getConfig } from "../config/service";
import { checkProposal, PROPOSE_ALERT_SYSTEM, proposalPrompt, proposeAlertTool } from "./propose";
import { exampleOf } from "./replay";
import type { TemplateProposalResponse } from "./schemas";
import { pendingWithDeps } from "./service";

export type TemplateProposal = z.infer<typeof TemplateProposalResponse>;

const BY_HAND = "enter the values by hand.";

export async function proposeTemplate(ctx: ServiceCtx, id: string): Promise<TemplateProposal> {
  const config = await getConfig(ctx);
  // The row first: an unknown id is a 404, an email already resolved a 409, whatever the settings.
  const { deps, row } = await pendingWithDeps(ctx, { id, opts: { ai: null, source: "proposal" } });
  const routed = providerForTask(ctx.env, config, "categorization", { timeoutMs: 30_000, maxRetries: 0 });
  if (!routed.ok) return { asked: false, proposal: null, reason: routed.reason };
  if (config.ai_extraction_enabled !== true)
    return {
      asked: false,
      proposal: null,
      reason: `“Read unknown alerts with AI” is off under Settings → Intelligence: nothing was sent; ${BY_HAND}`,
    };
  const { body: text, ...example } = await exampleOf(deps, row);
  const email = { ...example, text };
  if (!email.text.trim())
    return { asked: false, proposal: null, reason: `The email has no text to read; ${BY_HAND}` };
  // The log names the stage only: the reason may quote the email.
  const drop = (stage: string, why: string): TemplateProposal => {
    log("info", "alert_template_proposal_dropped", { failure_id: id, stage });
    return { asked: true, proposal: null, reason: `The model's reading was refused: ${why}; ${BY_HAND}` };
  };
  let answer: Record<string, unknown>;
  try {
    answer = await routed.provider.callTool({
      system: PROPOSE_ALERT_SYSTEM,
      user: proposalPrompt(email),
      tool: proposeAlertTool,
    });
  } catch (err) {
    return drop("model", aiErrorWords(asAiError(err)));
  }
  const checked = checkProposal(email, answer);
  if (!checked.ok) return drop("check", checked.why);
  const r = checked.reading;
  // The template the resolve would teach, as a dry run (the resolve derives it again when confirmed).
  const derived = deriveTemplate({
    fromEmail: email.fromEmail,
    subject: email.subject,
    body: email.text,
    sentIso: email.sentIso,
    amount: r.amount,
    merchant: r.company,
    date: r.date,
  });
  const host = senderHost(email.fromEmail);
  const institution = row.institution ?? (host ? nameFromHost(host) : "Other");
  return {
    asked: true,
    proposal: {
      date: r.date,
      time: r.time,
      amount: fromCents(r.amount),
      currency: r.currency,
      company: r.company,
      transaction_type: r.transactionType,
      institution,
      model: routed.model,
      template_name: derived.ok ? `${institution} ${r.transactionType}` : null,
      template_reason: derived.ok ? null : derived.reason,
      note: r.dateIsSent ? "The email prints no date: the day it was sent is the transaction's day." : null,
    },
    reason: null,
  };
}
