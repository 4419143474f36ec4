import {
  fromHono,
  OpenAPIRoute,
  type OpenAPIRouteSchema,
  type RequestTypes,
  type ValidatedData,
} from "chanfana";
import { Hono } from "hono";
import { type AppContext, type AppEnv, type ServiceCtx, serviceCtx } from "./context";
import { ApiError, ErrorEnvelope, validationError } from "./errors";
import { isJsonContentType } from "./origin";

/** A JSON answer: its description and schema. */
export const json = <T>(description: string, schema: T) => ({
  description,
  content: { "application/json": { schema } },
});

/** The 200 answer in JSON. */
export const ok = <T>(schema: T, description = "OK") => ({ "200": json(description, schema) });

/** An error answer in the one envelope. */
export const err = (description: string) => json(description, ErrorEnvelope);

/** Error answers in the one envelope, by status. */
export const errors = (table: Record<string, string>) =>
  Object.fromEntries(Object.entries(table).map(([status, what]) => [status, err(what)]));

/** Error responses every endpoint can give. */
export const COMMON_ERRORS = {
  "401": err("Missing or invalid credentials"),
  "403": err("Token scope forbids this method and path"),
  "422": err("Validation error: `details.errors` lists every problem"),
  "500": err("Unexpected error (no stack trace)"),
};

/**
 * Base class of every endpoint: adds the domain tag and the shared error responses to the
 * schema, and turns a malformed or missing JSON body into a 422 instead of chanfana's silent `{}`.
 */
export abstract class ApiRoute extends OpenAPIRoute {
  /** Set by the per-domain base class: one tag per router domain. */
  protected abstract readonly tag: string;

  override getSchema(): OpenAPIRouteSchema {
    const schema = super.getSchema();
    return {
      ...schema,
      tags: [this.tag],
      responses: {
        ...COMMON_ERRORS,
        ...(schema.request?.body
          ? { "415": err("The body is not application/json (or multipart for uploads)") }
          : {}),
        ...(schema.responses ?? {}),
      },
    };
  }

  override async getUnvalidatedData(): Promise<unknown> {
    if (this.unvalidatedData !== undefined) return this.unvalidatedData;
    const request = this.params.router.getRequest(this.args) as Request;
    const wantsJson = this.schema.request?.body?.content?.["application/json"]?.schema !== undefined;
    if (wantsJson && !["GET", "HEAD"].includes(request.method)) {
      const text = await request.clone().text();
      if (text.trim() === "") {
        // An optional body may be left out: the handler gets `{}`.
        if (this.schema.request?.body?.required === false) return super.getUnvalidatedData();
        throw validationError([{ loc: ["body"], msg: "Field required", type: "missing" }]);
      }
      if (!isJsonContentType(request.headers.get("content-type") ?? undefined)) {
        throw new ApiError(415, "Send the body as application/json");
      }
      try {
        JSON.parse(text);
      } catch {
        throw validationError([{ loc: ["body"], msg: "JSON decode error", type: "json_invalid" }]);
      }
    }
    return super.getUnvalidatedData();
  }
}

/** Builds a domain base class carrying the tag. */
export function domainRoute(tag: string) {
  abstract class DomainRoute extends ApiRoute {
    protected readonly tag = tag;
  }
  return DomainRoute;
}

/**
 * An endpoint of a domain: its schema and `handle`, which gets the request's service context, its
 * validated data and the hono context, and answers a Response as is, anything else as JSON (200).
 */
export function route<R extends RequestTypes>(
  Base: ReturnType<typeof domainRoute>,
  {
    handle,
    ...schema
  }: Omit<OpenAPIRouteSchema, "request"> & {
    request?: R;
    handle: (ctx: ServiceCtx, data: ValidatedData<{ request: R }>, c: AppContext) => Promise<object>;
  },
) {
  return class extends Base {
    override schema = schema;
    override async handle(c: AppContext) {
      const out = await handle(serviceCtx(c), await this.getValidatedData<{ request: R }>(), c);
      return out instanceof Response ? out : c.json(out);
    }
  };
}

/**
 * A domain's router. Errors pass through to the app's onError (the one envelope);
 * without passthroughErrors chanfana would answer validation failures itself with 400.
 */
export function domainRouter() {
  return fromHono(new Hono<AppEnv>(), { passthroughErrors: true });
}
