// Learning a bank through the real doors, as the dashboard does: an email ingested until it is
// quarantined, then resolved through POST /parse-failures/{id}/resolve (the template tests' steps).
import { expect } from "vitest";
import { ingestEmail } from "../../src/ingest";
import { testDeps } from "../fixtures/emails/deps";
import { call } from "./http";

/** Ingests `raw` and returns its parse-failure id; anything but a quarantine throws. */
export async function quarantined(raw: Uint8Array): Promise<string> {
  const out = await ingestEmail(raw, testDeps());
  if (out.status !== "quarantined") throw new Error(`expected quarantine, got ${out.status}`);
  return out.id;
}

/** Resolves a quarantined email (200 expected) and returns the response body. */
export async function resolve(id: string, body: object) {
  const res = await call(`/api/v1/parse-failures/${id}/resolve`, { method: "POST", body });
  expect(res.status, res.text).toBe(200);
  return res.body;
}
