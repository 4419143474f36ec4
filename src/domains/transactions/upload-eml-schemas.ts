import { z } from "zod";

export const BodyUploadEml = z
  .object({ file: z.string().meta({ format: "binary", contentMediaType: "message/rfc822" }) })
  .meta({ id: "Body_uploadEml", description: "A raw email file (.eml), at most 5 MB." });

export const UploadEmlResponse = z
  .object({
    status: z
      .enum(["created", "duplicate", "quarantined", "ignored"])
      .describe('"created" on success, "duplicate" if already present; otherwise quarantined or ignored'),
    date_file_name: z.string().nullable(),
    amount: z.number().nullable(),
    company: z.string().nullable(),
    category: z.string().nullable(),
    detail: z.string().nullable(),
  })
  .meta({ id: "UploadEmlResponse" });
export type UploadEmlResponse = z.infer<typeof UploadEmlResponse>;
