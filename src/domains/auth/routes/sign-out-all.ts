import { contentJson, OpenAPIRoute } from "chanfana";
import { type AppContext, serviceCtx } from "../../../http/context";
import { SignOutAllIn } from "../schemas";
import { signOutAll } from "../service";
import { AuthRoute, authOk, clearSessionCookie, withRetryAfter, clientInfo } from "./base";

export class WebappSignOutAll extends AuthRoute {
  override schema = {
    operationId: "webappSignOutAll",
    summary: "Bump the session epoch, invalidating all existing cookies",
    request: { body: { ...contentJson(SignOutAllIn.nullable()), required: false } },
    responses: authOk("Every session is signed out"),
  };

  /** The body is optional: an empty one skips the base class's "body required" check. */
  override async getUnvalidatedData(): Promise<unknown> {
    const request = this.params.router.getRequest(this.args) as Request;
    if ((await request.clone().text()).trim() === "") {
      return OpenAPIRoute.prototype.getUnvalidatedData.call(this);
    }
    return super.getUnvalidatedData();
  }

  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    await withRetryAfter(c, () => signOutAll(serviceCtx(c), { input: body ?? null, client: clientInfo(c) }));
    clearSessionCookie(c);
    return c.json({ status: "signed_out_all" });
  }
}
