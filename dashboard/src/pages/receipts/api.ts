// The receipts API calls the pages share (typed by the generated schema).
import { API_BASE, api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { toUploadable } from "./heic";

type S = components["schemas"];
export type Attachment = S["AttachmentResponse"];
export type Candidates = S["ReceiptCandidatesResponse"];
export type Candidate = S["ReceiptCandidate"];

export const fileUrl = (id: string) => `${API_BASE}/api/v1/attachments/${encodeURIComponent(id)}/file`;
export const isImage = (a: Attachment) =>
  a.content_type.startsWith("image/") && a.content_type !== "image/heic";

/** Uploads one file (HEIC converted to JPEG in the browser first, where the browser can). */
export async function uploadReceipt(file: File, txId?: string): Promise<Attachment> {
  const ready = await toUploadable(file);
  return unwrap(
    api.POST("/api/v1/attachments", {
      body: { file: ready as unknown as string, kind: "receipt", tx_id: txId ?? null },
      bodySerializer: () => {
        const fd = new FormData();
        fd.append("file", ready, ready.name);
        fd.append("kind", "receipt");
        if (txId) fd.append("tx_id", txId);
        return fd;
      },
    }),
  );
}

export const listUnfiled = () =>
  unwrap(api.GET("/api/v1/attachments", { params: { query: { unlinked: true } } }));

export const listForTx = (txId: string) =>
  unwrap(api.GET("/api/v1/transactions/{tx_id}/attachments", { params: { path: { tx_id: txId } } }));

export const link = (id: string, txId: string | null) =>
  unwrap(
    api.POST("/api/v1/attachments/{attachment_id}/link", {
      params: { path: { attachment_id: id } },
      body: { tx_id: txId },
    }),
  );

export const remove = (id: string) =>
  unwrap(api.DELETE("/api/v1/attachments/{attachment_id}", { params: { path: { attachment_id: id } } }));

export const parse = (id: string) =>
  unwrap(api.POST("/api/v1/attachments/{attachment_id}/parse", { params: { path: { attachment_id: id } } }));

export interface Facts {
  total?: number;
  date?: string;
  merchant?: string;
}

export const candidates = (id: string, facts: Facts) =>
  unwrap(
    api.GET("/api/v1/attachments/{attachment_id}/candidates", {
      params: { path: { attachment_id: id }, query: facts },
    }),
  );

/** What the receipt's parse says, as the candidate form's starting values. */
export function parsedFacts(a: Attachment): Facts {
  const p = (a.parse_json ?? {}) as Record<string, unknown>;
  return {
    total: typeof p.total === "number" ? p.total : undefined,
    date: typeof p.date === "string" ? p.date : undefined,
    merchant: typeof p.merchant === "string" ? p.merchant : undefined,
  };
}
