import { contentJson } from "chanfana";
import { z } from "zod";
import { json, route } from "../../../http/route";
import { ErrorEnvelope } from "../../../http/errors";
import { PageTextResponse, StatementLayout, TeachLayoutRequest } from "../layouts/schemas";
import { pageText } from "../layouts/service";
import { StatementDetailResponse, StatementIdParams } from "../schemas";
import { loadStatement } from "../service";
import { teachStatementLayout } from "../teach";
import { NOT_FOUND, StatementsRoute } from "./base";

export const GetPageText = route(StatementsRoute, {
  operationId: "getStatementPageText",
  summary: "A PDF statement's first pages as laid out, for marking its columns",
  request: { params: StatementIdParams },
  responses: { "200": json("Lines with positioned text", PageTextResponse), ...NOT_FOUND },
  handle: async (ctx, { params }) => {
    const { stmt } = await loadStatement(ctx, params.statement_id);
    return await pageText(ctx, stmt);
  },
});

export const TeachLayout = route(StatementsRoute, {
  operationId: "teachStatementLayout",
  summary:
    "Mark a PDF's columns once: the rows are read and balance-checked, the layout is kept for its bank",
  description:
    "The layout is saved under the fingerprint of the page's header (its words and positions); the next " +
    "statement with that header reads with no help. The statement is read again with it.",
  request: { params: StatementIdParams, body: { ...contentJson(TeachLayoutRequest), required: true } },
  responses: {
    "200": json(
      "The layout and the statement read with it",
      z
        .object({ layout: StatementLayout, statement: StatementDetailResponse })
        .meta({ id: "TeachLayoutResponse" }),
    ),
    "422": json("The marks read no rows, or no header stands above them", ErrorEnvelope),
    ...NOT_FOUND,
  },
  handle: async (ctx, { params, body }) => teachStatementLayout(ctx, { id: params.statement_id, body }),
});
