import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { CategoryGroupUpdateRequest, CategoryGroupUpdateResponse, CategoryNameParam } from "../schemas";
import { updateCategoryGroup } from "../service";
import { CategoryManagementRoute, CONFLICT, IfMatchHeaders, json, NOT_FOUND } from "./base";

export class UpdateCategoryGroup extends CategoryManagementRoute {
  override schema = {
    operationId: "updateCategoryGroup",
    summary: "Move a category to a display group (null removes it from any group)",
    request: {
      params: CategoryNameParam,
      headers: IfMatchHeaders,
      body: { ...contentJson(CategoryGroupUpdateRequest), required: true },
    },
    responses: {
      "200": json("The old and new group", CategoryGroupUpdateResponse),
      ...NOT_FOUND,
      ...CONFLICT,
    },
  };

  override async handle(c: AppContext) {
    const { params, body, headers } = await this.getValidatedData<typeof this.schema>();
    const result = await updateCategoryGroup(serviceCtx(c), {
      name: params.name,
      group: body.group,
      expectedVersion: headers["if-match"],
    });
    return c.json(result);
  }
}
