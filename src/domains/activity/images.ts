/**
 * Reading a ledger entry's stored images (activity_log.before_json/after_json, drizzle's JSON mode)
 * through `storedJson` (src/db/json.ts). Which shape an image has is keyed by the entry's
 * resource kind: a kind whose reverter declares its image schema (`Reverter.image`) is read in that
 * shape for the restore; every other kind, and old kinds no reverter knows, read as a generic JSON
 * object, so old ledgers stay listable. Pure: no I/O.
 */
import { z } from "zod";
import { type StoredJsonReader, storedJson } from "../../db/json";
import type { Image } from "./rules";

/** Any JSON object: what the list shows and the stale guard compares, for every kind. */
const GenericImage: z.ZodType<Image> = z.record(z.string(), z.unknown());

/**
 * An image as the activity API shows it: a JSON object, or null (none kept, a delete's after, or a
 * stored value that is not an object: logged, shown as null, as entries always were).
 */
export const readImage: StoredJsonReader<Image | null> = storedJson(
  "activity_log image",
  GenericImage.nullable(),
  { value: () => null },
);

/**
 * The reader of a kind's `before` image in the shape its reverter declared: the shape, or a
 * StoredJsonError naming the kind and the field out of shape (never a silent wrong shape).
 */
export const imageReader = <T>(kind: string, schema: z.ZodType<T>): StoredJsonReader<T> =>
  storedJson(`activity_log.before_json (${kind})`, schema);
