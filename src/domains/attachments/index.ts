import {
  ListReceiptMatchCandidates,
  DeleteAttachment,
  DownloadAttachmentFile,
  LinkAttachment,
  ListAttachments,
  ParseReceipt,
  UploadAttachment,
} from "./routes";
import { domainRouter } from "../../http/route";
import type { Reverters } from "../activity/reverters";
import { currentLink, restoreLink } from "./service";

/** Mounted at /api/v1/attachments. */
export function attachmentsRouter() {
  const r = domainRouter();
  r.get("/", ListAttachments);
  r.post("/", UploadAttachment);
  r.get("/:attachment_id/file", DownloadAttachmentFile);
  r.post("/:attachment_id/parse", ParseReceipt);
  r.get("/:attachment_id/candidates", ListReceiptMatchCandidates);
  r.post("/:attachment_id/link", LinkAttachment);
  r.delete("/:attachment_id", DeleteAttachment);
  return r;
}

/** This domain's ledger reverters (app.ts registers them): link and unlink, incl. auto-links. */
export const attachmentReverters: Reverters = {
  attachment: {
    current: currentLink,
    restore: (ctx, id, before, opts) => {
      opts.journal?.(); // the revert's own entry rides in the link's batch
      return restoreLink(ctx, { id, image: before });
    },
  },
};
