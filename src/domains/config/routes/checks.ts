import type { z } from "zod";
import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute } from "../../../http/route";
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
const json = (description: string, schema: z.ZodType) => ({
  description,
  content: { "application/json": { schema } },
});
const body = (schema: z.ZodType) => ({ body: { content: { "application/json": { schema } } } });

export class TestModelKey extends ConfigRoute {
  override schema = {
    operationId: "testModelKey",
    summary: "Test a model connection: key rejected, model not found, or reachable (in words)",
    request: body(TestModelKeyRequest),
    responses: { "200": json("Verdict", TestModelKeyResponse) },
  };
  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await testModel(serviceCtx(c), body as z.infer<typeof TestModelKeyRequest>));
  }
}

export class TestObjectBackup extends ConfigRoute {
  override schema = {
    operationId: "testObjectBackup",
    summary: "Write, read back and delete a probe object where daily backups go",
    request: body(TestObjectBackupRequest),
    responses: { "200": json("Result", TestObjectBackupResponse) },
  };
  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await testObjectBackup(serviceCtx(c), body as z.infer<typeof TestObjectBackupRequest>));
  }
}
