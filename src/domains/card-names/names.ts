/**
 * SPEC's `Name` (cardholder first name) when an alert prints no greeting: the institution's card
 * (or account) last four digits mapped to a name, as the reference's card-name mapping file does
 * (`{ "<institution>": { "<last four>": "<name>" } }`). Stored in the `card_names` table.
 */
import type { Db } from "../../db";
import { log } from "../../lib/log";
import { cardLastFour } from "../../ingest/institutions";
import { type CardNameRow, cardNamesQuery } from "./queries";

export { cardNamesQuery };

export type CardNameMap = Record<string, Record<string, string>>;

/** The mapped name for the card this alert text names, or null (pure). */
export function nameForCard(map: CardNameMap | undefined, institution: string, text: string): string | null {
  if (!map) return null;
  const digits = cardLastFour(text);
  if (!digits) return null;
  const byInst = Object.entries(map).find(([k]) => k.toLowerCase() === institution.toLowerCase())?.[1];
  return byInst?.[digits] ?? null;
}

export function cardNameMap(rows: CardNameRow[]): CardNameMap {
  const map: CardNameMap = {};
  for (const r of rows) {
    const cards = map[r.institution] ?? {};
    cards[r.last_four] = r.name;
    map[r.institution] = cards;
  }
  return map;
}

/** Every mapping, as one map (read once per email batch with the other settings; fails open). */
export async function loadCardNames(db: Db): Promise<CardNameMap> {
  try {
    return cardNameMap(await cardNamesQuery(db));
  } catch (err) {
    log("warn", "ingest.card_names_read_failed", { error: String(err) });
    return {};
  }
}
