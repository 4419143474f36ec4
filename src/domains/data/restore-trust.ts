/**
 * A restore carries data only: settings that weaken security or grant trust are never
 * taken from a backup. Whatever the backup's settings document says of them, the journal keeps its
 * own values: the development login bypass, the passwordless acknowledgement, the forwarding
 * addresses and the receiving-server and ARC-sealer lists that decide which forwards are believed.
 * (sender_trust is not restored at all: import-rules.ts leaves it out; storage keys are derived in
 * restore-files.ts.)
 */
import type { ParsedBackup } from "./import-rules";

const NEVER_RESTORED_SETTINGS = [
  "auth_bypass_for_dev",
  "passwordless_acknowledged",
  "forwarding_addresses",
  "receiving_authserv_ids",
  "arc_trusted_sealers",
] as const;

/** Rewrites each restored settings document so these keys hold the journal's current values. */
export function keepSecuritySettings(backup: ParsedBackup, current: Record<string, unknown>): void {
  for (const row of backup.tables.app_config ?? []) {
    let doc: Record<string, unknown>;
    try {
      const parsed = typeof row.data === "string" ? JSON.parse(row.data) : row.data;
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) continue;
      doc = { ...(parsed as Record<string, unknown>) };
    } catch {
      continue;
    }
    for (const key of NEVER_RESTORED_SETTINGS) {
      if (current[key] === undefined) delete doc[key];
      else doc[key] = current[key];
    }
    row.data = typeof row.data === "string" ? JSON.stringify(doc) : doc;
  }
}
