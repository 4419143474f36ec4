import { contentJson } from "chanfana";
import { z } from "zod";
import { json, route } from "../../../http/route";
import {
  LayoutIdParams,
  RenameLayoutRequest,
  StatementLayout,
  StatementLayoutList,
} from "../layouts/schemas";
import { deleteLayout, layoutItem, listLayoutItems, renameLayout } from "../layouts/service";
import { StatementsRoute } from "./base";

const NOT_FOUND = { "404": json("No layout with this id", z.object({ error: z.string() })) };

export const ListLayouts = route(StatementsRoute, {
  operationId: "listStatementLayouts",
  summary: "PDF statement layouts taught by marking columns (Rules → Banks I taught)",
  responses: { "200": json("Taught layouts", StatementLayoutList) },
  handle: async (ctx) => listLayoutItems(ctx),
});

export const RenameLayout = route(StatementsRoute, {
  operationId: "renameStatementLayout",
  summary: "Rename a taught statement layout (undoable)",
  request: { params: LayoutIdParams, body: { ...contentJson(RenameLayoutRequest), required: true } },
  responses: { "200": json("The layout", StatementLayout), ...NOT_FOUND },
  handle: async (ctx, { params, body }) => {
    const res = await renameLayout(ctx, { id: params.layout_id, name: body.name });
    return layoutItem(res.after);
  },
});

export const DeleteLayout = route(StatementsRoute, {
  operationId: "deleteStatementLayout",
  summary: "Forget a taught statement layout (undoable)",
  request: { params: LayoutIdParams },
  responses: { "200": json("Deleted", z.object({ ok: z.boolean() })), ...NOT_FOUND },
  handle: async (ctx, { params }) => {
    await deleteLayout(ctx, params.layout_id);
    return { ok: true };
  },
});
