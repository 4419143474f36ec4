import type { z } from "zod";
import { domainRoute, json, route } from "../../http/route";
import type { ServiceCtx } from "../../lib/context";
import {
  TestModelKeyRequest,
  TestModelKeyResponse,
  TestObjectBackupRequest,
  TestObjectBackupResponse,
  AiReadinessResponse,
} from "./checks-schemas";
import { testModel, testObjectBackup } from "./checks";
import { AppConfigResponse, AppConfigUpdateRequest } from "./schemas";
import { describeConfig } from "./describe-config";
import { contentJson } from "chanfana";
import { type AppContext, serviceCtx } from "../../http/context";
import { ignoredKeys } from "./rules";
import { updateConfig } from "./service";
import { aiReadiness } from "./readiness";

// The reference files these checks under its config router (and tag); the backup's status is
// under data (src/domains/data/routes/backup-status.ts).
const ConfigRoute = domainRoute("config");

/** A check: its JSON body in, the verb's verdict out. */
function checkRoute<I extends z.ZodType>(
  operationId: string,
  summary: string,
  [request, response, description]: [I, z.ZodType, string],
  run: (ctx: ServiceCtx, body: z.infer<I>) => Promise<object>,
) {
  return route(ConfigRoute, {
    operationId,
    summary,
    request: { body: { content: { "application/json": { schema: request } } } },
    responses: { "200": json(description, response) },
    handle: async (ctx, { body }) => run(ctx, body as z.infer<I>),
  });
}

export const TestModelKey = checkRoute(
  "testModelKey",
  "Test a model connection: key rejected, model not found, or reachable (in words)",
  [TestModelKeyRequest, TestModelKeyResponse, "Verdict"],
  testModel,
);

export const TestObjectBackup = checkRoute(
  "testObjectBackup",
  "Write, read back and delete a probe object where daily backups go",
  [TestObjectBackupRequest, TestObjectBackupResponse, "Result"],
  testObjectBackup,
);

export const GetAppConfig = route(ConfigRoute, {
  operationId: "getAppConfig",
  summary: "Runtime configuration: storage, demo mode, user, AI and schedule settings",
  responses: {
    "200": json("The effective configuration", AppConfigResponse),
  },
  handle: async (ctx) => describeConfig(ctx),
});

export class PutAppConfig extends ConfigRoute {
  override schema = {
    operationId: "putAppConfig",
    summary: "Update runtime configuration (partial; null resets a field)",
    description:
      "Journaled with before/after images, so `POST /api/v1/activity/{id}/revert` can undo it. The body " +
      "of `GET` is a valid update: keys that are not settings (response-only or unknown) and `storage` " +
      "(D1 here) change nothing and are named in the `X-Config-Ignored` header. `demo_mode: true` makes " +
      "the journal read-only (405 on writes) until a `PUT` here sets it false.",
    request: { body: { ...contentJson(AppConfigUpdateRequest), required: true } },
    responses: {
      "200": {
        description: "The configuration after the update",
        headers: {
          "X-Config-Ignored": {
            description: "Keys of the body that changed nothing (not settings, or storage), comma-separated",
            schema: { type: "string" as const },
          },
        },
        content: { "application/json": { schema: AppConfigResponse } },
      },
    },
  };

  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const ignored = ignoredKeys(
      ((await this.getUnvalidatedData()) as { body?: unknown }).body,
      Object.keys(AppConfigUpdateRequest.shape),
    );
    if (ignored.length > 0) c.header("X-Config-Ignored", ignored.join(", "));
    const { response } = await updateConfig(serviceCtx(c), body);
    return c.json(response);
  }
}

export const GetAiReadiness = route(domainRoute("config"), {
  operationId: "getAiReadiness",
  summary: "Per AI action: can it run now, what it needs, and why not (in words), with where to set it up",
  responses: {
    "200": json("Readiness", AiReadinessResponse),
  },
  handle: async (ctx) => aiReadiness(ctx),
});
