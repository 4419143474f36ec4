import type { z } from "zod";
import { type AppContext, serviceCtx } from "../../../http/context";
import { domainRoute } from "../../../http/route";
import {
  ObjectBackupStatusResponse,
  TestModelRequest,
  TestModelResponse,
  TestObjectBackupRequest,
  TestObjectBackupResponse,
} from "../schemas";
import { objectBackupStatus, testModel, testObjectBackup } from "../service";

const IntelligenceRoute = domainRoute("intelligence");
const json = (description: string, schema: z.ZodType) => ({ description, content: { "application/json": { schema } } });
const body = (schema: z.ZodType) => ({ body: { content: { "application/json": { schema } } } });

export class TestModelKey extends IntelligenceRoute {
  override schema = {
    operationId: "testModelKey",
    summary: "Test a model connection: key rejected, model not found, or reachable (in words)",
    request: body(TestModelRequest),
    responses: { "200": json("Verdict", TestModelResponse) },
  };
  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await testModel(serviceCtx(c), body as z.infer<typeof TestModelRequest>));
  }
}

export class TestObjectBackup extends IntelligenceRoute {
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

export class GetObjectBackupStatus extends IntelligenceRoute {
  override schema = {
    operationId: "getObjectBackupStatus",
    summary: "Daily backup settings and what the bucket holds",
    responses: { "200": json("Status", ObjectBackupStatusResponse) },
  };
  override async handle(c: AppContext) {
    return c.json(await objectBackupStatus(serviceCtx(c)));
  }
}
