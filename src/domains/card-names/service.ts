/** The card-name mapping (SPEC's `Name` when an alert greets nobody): read it, replace it. */
import { loadCardNames } from "./names";
import { replaceCardNamesQueries } from "./queries";
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import type { CardNameMapping } from "./schemas";

const count = (m: CardNameMapping) => Object.values(m).reduce((n, cards) => n + Object.keys(cards).length, 0);

export async function getCardNames(ctx: ServiceCtx) {
  const mappings = await loadCardNames(getDb(ctx.env.DB));
  return { count: count(mappings), mappings };
}

export async function putCardNames(ctx: ServiceCtx, mappings: CardNameMapping) {
  const before = await loadCardNames(getDb(ctx.env.DB));
  const response = { count: count(mappings), mappings };
  ctx.journal({ resourceId: "card_names", summary: `Card-name mapping set (${response.count} cards)` });
  const updated_at = ctx.clock().toISOString();
  const rows = Object.entries(mappings).flatMap(([institution, cards]) =>
    Object.entries(cards).map(([last_four, name]) => ({ institution, last_four, name, updated_at })),
  );
  await ctx.batch(replaceCardNamesQueries(getDb(ctx.env.DB), rows));
  return { before, response };
}
