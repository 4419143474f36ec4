import { z } from "zod";

/** An R2 event notification ("object created" under the inbox prefix). */
const R2EventMessage = z.object({
  account: z.string().optional(),
  bucket: z.string(),
  action: z.string(),
  object: z.object({ key: z.string(), size: z.number().optional(), eTag: z.string().optional() }),
  eventTime: z.string().optional(),
});

/** A slow AI job the app itself enqueued. */
const JobMessage = z.object({
  type: z.literal("job"),
  kind: z.string(),
  payload: z.record(z.string(), z.unknown()).default({}),
});

export const QueueMessage = z.union([JobMessage, R2EventMessage]);
export type QueueMessage = z.infer<typeof QueueMessage>;
