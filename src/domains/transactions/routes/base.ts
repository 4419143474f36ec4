import { stageImages } from "../../../http/activity";
import type { AppContext } from "../../../http/context";
import { domainRoute } from "../../../http/route";

export const TransactionsRoute = domainRoute("transactions");
export const SearchRoute = domainRoute("search");

export const json = <T>(schema: T, description = "OK") => ({
  "200": { description, content: { "application/json": { schema } } },
});

/** Stages a single-transaction edit's images for the activity ledger. */
export function stageTx(
  c: AppContext,
  txId: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  summary: string,
) {
  stageImages(c, { kind: "transaction", resourceId: txId, before, after, summary });
}
