import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { CategoriesManagementResponse, CategoryAddRequest } from "../schemas";
import { addCategory } from "../service";
import { CategoryManagementRoute, CONFLICT, IfMatchHeaders, json } from "./base";

export class AddCategory extends CategoryManagementRoute {
  override schema = {
    operationId: "addCategory",
    summary: "Add a category (names are unique case-insensitively)",
    description: "The first write stores the 39 defaults, so the stored list replaces them from then on.",
    request: { headers: IfMatchHeaders, body: { ...contentJson(CategoryAddRequest), required: true } },
    responses: { "200": json("The list after the add", CategoriesManagementResponse), ...CONFLICT },
  };

  override async handle(c: AppContext) {
    const { body, headers } = await this.getValidatedData<typeof this.schema>();
    return c.json(await addCategory(serviceCtx(c), { input: body, expectedVersion: headers["if-match"] }));
  }
}
