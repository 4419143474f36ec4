import { inject } from "vitest";
import type { ImapTestInfo } from "../setup/imap";

/**
 * The throwaway Dovecot of test/setup/global-imap.ts (`inject("imap")`). When it could not start
 * because Dovecot is not installed, the calling test file fails here with how to install it.
 */
export function requireImap(): ImapTestInfo {
  const info = inject("imap");
  if (!info) throw new Error("no IMAP server was provided to this run (test/setup/global.ts)");
  if ("missing" in info) throw new Error(info.missing);
  return info;
}
