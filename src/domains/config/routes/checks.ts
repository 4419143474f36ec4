import type { z } from "zod";
import { domainRoute, json, route } from "../../../http/route";
import type { ServiceCtx } from "../../../lib/context";
import {
  TestModelKeyRequest,
  TestModelKeyResponse,
  TestObjectBackupRequest,
  TestObjectBackupResponse,
} from "../checks-schemas";
import { testModel, testObjectBackup } from "../checks";

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
