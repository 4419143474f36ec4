import { parseETransfer } from "./etransfer";
import type { Institution } from "./types";

/**
 * Simplii alerts reach us only as Interac e-Transfer notices, which come from Interac's domain, so
 * SPEC.md makes this parser reachable by body text alone: it deliberately lists no sender domain.
 */
export const SIMPLII: Institution = {
  name: "Simplii",
  domains: [],
  bodyMarkers: [/\bSimplii\b/i],
  kinds: ["e-transfer"],
  parse: parseETransfer,
};
