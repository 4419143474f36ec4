import { json, route } from "../../../http/route";
import { proposeLayout } from "../layouts/proposal";
import { LayoutProposalResponse } from "../layouts/schemas";
import { StatementIdParams } from "../schemas";
import { loadStatement } from "../service";
import { NOT_FOUND, StatementsRoute } from "./base";

export const ProposeLayout = route(StatementsRoute, {
  operationId: "proposeStatementLayout",
  summary: "The document-parsing model's proposal of a PDF's column marks, judged by the balance check",
  description:
    "Only when document parsing has a provider (otherwise nothing is sent and `asked` is false). The first " +
    "page or two of laid-out lines go to the model; the marks it proposes are read like a person's and kept " +
    "only when the rows add up to the printed opening and closing balances. Nothing is saved: the person " +
    "confirms the marks with PUT /statements/{statement_id}/layout.",
  request: { params: StatementIdParams },
  responses: {
    "200": json("A balanced proposal, or why there is none", LayoutProposalResponse),
    ...NOT_FOUND,
  },
  handle: async (ctx, { params }) => {
    const { stmt } = await loadStatement(ctx, params.statement_id);
    return await proposeLayout(ctx, stmt);
  },
});
