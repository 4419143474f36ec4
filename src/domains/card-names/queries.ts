/** Queries of card_names (names given to cards by their last digits). No rules here. */
import type { Db } from "../../db";
import { cardNames } from "../../db/schema";
import type { Statements } from "../../lib/context";

export type CardNameRow = typeof cardNames.$inferSelect;

/** Every card-name row, as a query for a batch. */
export const cardNamesQuery = (db: Db) => db.select().from(cardNames);

/** The statements replacing every card-name row by `rows` (for the caller's batch). */
export const replaceCardNamesQueries = (db: Db, rows: CardNameRow[]): Statements => [
  db.delete(cardNames),
  ...rows.map((r) => db.insert(cardNames).values(r)),
];
