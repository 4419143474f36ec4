import { contentJson } from "chanfana";
import { z } from "zod";
import { type AppContext, serviceCtx } from "../../../http/context";
import {
  LayoutIdParams,
  RenameLayoutRequest,
  StatementLayout,
  StatementLayoutList,
} from "../layouts/schemas";
import { deleteLayout, layoutItem, listLayoutItems, renameLayout } from "../layouts/service";
import { json, StatementsRoute } from "./base";

const NOT_FOUND = { "404": json("No layout with this id", z.object({ error: z.string() })) };

export class ListLayouts extends StatementsRoute {
  override schema = {
    operationId: "listStatementLayouts",
    summary: "PDF statement layouts taught by marking columns (Rules → Banks I taught)",
    responses: { "200": json("Taught layouts", StatementLayoutList) },
  };

  override async handle(c: AppContext) {
    return c.json(await listLayoutItems(serviceCtx(c)));
  }
}

export class RenameLayout extends StatementsRoute {
  override schema = {
    operationId: "renameStatementLayout",
    summary: "Rename a taught statement layout (undoable)",
    request: { params: LayoutIdParams, body: { ...contentJson(RenameLayoutRequest), required: true } },
    responses: { "200": json("The layout", StatementLayout), ...NOT_FOUND },
  };

  override async handle(c: AppContext) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    const res = await renameLayout(serviceCtx(c), { id: params.layout_id, name: body.name });
    return c.json(layoutItem(res.after));
  }
}

export class DeleteLayout extends StatementsRoute {
  override schema = {
    operationId: "deleteStatementLayout",
    summary: "Forget a taught statement layout (undoable)",
    request: { params: LayoutIdParams },
    responses: { "200": json("Deleted", z.object({ ok: z.boolean() })), ...NOT_FOUND },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await deleteLayout(serviceCtx(c), params.layout_id);
    return c.json({ ok: true });
  }
}
