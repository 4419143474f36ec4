/**
 * The routes of a run in bounded steps (a zip built in steps, a restore's files, the demo seed): its
 * status (GET …/current) and the zip a finished build wrote (GET …/jobs/{job_id}/file).
 */
import { z } from "zod";
import { isDemo } from "../env";
import type { Env } from "../env";
import type { ServiceCtx } from "../lib/context";
import { ApiError, notFound } from "../lib/errors";
import type { AppContext } from "./context";
import { domainRoute, json, route } from "./route";

/** 405 in the public demo: `what` (an export) is turned off there. */
export function refuseInDemo(env: Env, what: string) {
  if (isDemo(env)) throw new ApiError(405, `${what} is disabled in the demo`, "METHOD_NOT_ALLOWED");
}

/** A zip download under its file name, never cached. */
export const zipResponse = (body: ReadableStream, filename: string, size?: number) =>
  new Response(body, {
    headers: {
      "content-type": "application/zip",
      ...(size === undefined ? {} : { "content-length": String(size) }),
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
    },
  });

/** GET …/current: the latest run's status (idle before any). */
export function runStatusRoute(
  tag: string,
  o: {
    operationId: string;
    summary: string;
    /** The 200 answer's description. */
    answer: string;
    schema: z.ZodType;
    read: (ctx: ServiceCtx) => Promise<object>;
  },
) {
  return route(domainRoute(tag), {
    operationId: o.operationId,
    summary: o.summary,
    responses: { "200": json(o.answer, o.schema) },
    handle: async (ctx) => o.read(ctx),
  });
}

/** GET …/jobs/{job_id}/file: the zip a finished build wrote (404 unless it is the latest done one). */
export function builtZipRoute(
  tag: string,
  o: {
    operationId: string;
    summary: string;
    /** What the build makes ("backup", "tax pack"): the answers' words. */
    what: string;
    /** The error answers beside 200. */
    errors: Record<string, unknown>;
    /** The export's name in the demo's 405. */
    demo: string;
    built: (env: Env, id: string) => Promise<{ obj: R2ObjectBody; filename: string } | null>;
  },
) {
  return class extends domainRoute(tag) {
    override schema = {
      operationId: o.operationId,
      summary: o.summary,
      request: { params: z.object({ job_id: z.string().min(1).max(64) }) },
      responses: {
        "200": { description: `The ${o.what} zip`, content: { "application/zip": { schema: z.string() } } },
        ...o.errors,
      },
    };
    override async handle(c: AppContext) {
      refuseInDemo(c.env, o.demo);
      const { params } = await this.getValidatedData<typeof this.schema>();
      const built = await o.built(c.env, params.job_id);
      if (!built) throw notFound(`Finished ${o.what} build`);
      return zipResponse(built.obj.body, built.filename, built.obj.size);
    }
  };
}
