import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { GroupsResponse, GroupsUpdateRequest, OptionalYearQuery } from "../schemas";
import { getGroups, putGroups } from "../service";
import { CONFLICT, GroupsRoute, json } from "./base";

export class GetGroups extends GroupsRoute {
  override schema = {
    operationId: "getGroups",
    summary: "Get budget category groups for a year",
    request: { query: OptionalYearQuery },
    responses: json(GroupsResponse),
  };
  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getGroups(serviceCtx(c), query.year));
  }
}

export class PutGroups extends GroupsRoute {
  override schema = {
    operationId: "putGroups",
    summary: "Replace budget category groups for a year",
    description: "`version` is the groups version read (null or 0 when none exists); a stale one gives 409.",
    request: { query: OptionalYearQuery, body: { ...contentJson(GroupsUpdateRequest), required: true } },
    responses: { ...json(GroupsResponse), ...CONFLICT },
  };
  override async handle(c: AppContext) {
    const { query, body } = await this.getValidatedData<typeof this.schema>();
    const res = await putGroups(serviceCtx(c), { year: query.year, input: body });
    return c.json(res.response);
  }
}
