// Why an email was not read or was set aside, in words: the API's failure stages and gate reasons
// are codes (SPEC's enum values); no screen shows them as they are.

const STAGE_WORDS: Record<string, string> = {
  no_parser_match: "no reader knows this bank's wording yet",
  extraction_empty: "the bank is known, but the amount, merchant or date could not be read",
  ai_extraction_failed: "the AI could not read it",
  ai_validation_failed: "the AI's reading did not match the email",
  db_validation_failed: "it could not be saved",
  authentication_failed: "the receiving server says the bank's own message failed authentication",
  email_too_complex: "it was refused unread: too large, too deeply nested or too many parts",
};

const IGNORE_WORDS: Record<string, string> = {
  not_a_transaction_alert: "nothing in it reads like a bank's transaction alert",
  classifier_no: "the AI judged it not to be a transaction alert",
  classifier_error: "the AI could not judge it, so it was set aside",
  gate_error: "it could not be checked, so it was set aside",
};

/** A code as plain words when it has none of its own ("some_stage" → "some stage"). */
const plain = (code: string) => code.replace(/[_-]+/g, " ");

export function stageWords(stage: string | null | undefined): string {
  return stage ? (STAGE_WORDS[stage] ?? plain(stage)) : "no reason given";
}

export function ignoreWords(reason: string | null | undefined): string {
  return reason ? (IGNORE_WORDS[reason] ?? plain(reason)) : "no reason given";
}

/**
 * The upload door's `detail` for a quarantined or ignored email ("No usable transaction
 * (no_parser_match); quarantined as pf_…", "Not a transaction alert (reason)") in words, without
 * the quarantine id; any other detail as it is.
 */
export function uploadDetailWords(status: string, detail: string | null): string | null {
  if (!detail) return null;
  const code = detail.match(/\(([a-z_]+)\)/)?.[1];
  if (status === "quarantined")
    return `No transaction could be read: ${stageWords(code)}. It waits under Needs review, where you can teach the journal this bank's alerts or enter it by hand.`;
  if (status === "ignored") return `Set aside: ${ignoreWords(code)}. It is listed under Ignored emails.`;
  return detail;
}
