import { type AppContext, serviceCtx } from "../../../http/context";
import { annotateActivity } from "../../../http/activity";
import { ErrorEnvelope } from "../../../http/errors";
import { domainRoute } from "../../../http/route";
import { commitImport, previewImport, readBackupUpload } from "../import";
import {
  BodyPreviewBackupImport,
  ImportCommitRequest,
  ImportPreviewResponse,
  ImportResult,
} from "../import-schemas";

const DataRoute = domainRoute("data");
const envelope = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorEnvelope } },
});

export class PreviewBackupImport extends DataRoute {
  override schema = {
    operationId: "previewBackupImport",
    summary:
      "Stage a backup zip (or a search CSV) and return a dry run: rows new, identical or different per table",
    description:
      "Nothing is written to the journal. The zip is staged under a random token for 15 minutes. " +
      "Secrets tables are never imported. Disabled in demo mode.",
    request: {
      body: { content: { "multipart/form-data": { schema: BodyPreviewBackupImport } }, required: true },
    },
    responses: {
      "200": {
        description: "The dry run",
        content: { "application/json": { schema: ImportPreviewResponse } },
      },
      "413": envelope("File larger than 50 MB"),
    },
  };
  override async handle(c: AppContext) {
    const upload = await readBackupUpload(c.req.raw);
    return c.json(await previewImport(serviceCtx(c), upload));
  }
}

export class CommitBackupImport extends DataRoute {
  override schema = {
    operationId: "commitBackupImport",
    summary: "Apply a previewed backup (skip, overwrite or keep_both existing rows; config lists replaced)",
    request: { body: { content: { "application/json": { schema: ImportCommitRequest } }, required: true } },
    responses: {
      "200": { description: "What was written", content: { "application/json": { schema: ImportResult } } },
      "404": envelope("No staged import with this token"),
      "410": envelope("The preview is older than 15 minutes"),
    },
  };
  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const result = await commitImport(serviceCtx(c), body);
    annotateActivity(c, {
      resourceId: "backup",
      summary: `Restored a backup (${body.strategy}): ${result.inserted} inserted, ${result.updated} replaced, ${result.skipped} skipped`,
    });
    return c.json(result);
  }
}
