// The tax pack API calls of the Tax page (typed by the generated schema).
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";

type S = components["schemas"];
export type TaxPack = S["TaxPackResponse"];
export type TaxLine = S["TaxLineResponse"];
export type TaxRow = S["TaxPackTransaction"];
export type LineOption = S["TaxLineOption"];

export const loadPack = (year: number) =>
  unwrap(api.GET("/api/v1/tax-pack", { params: { query: { year } } }));

export const loadLineOptions = () => unwrap(api.GET("/api/v1/tax-pack/lines"));

export const includeIn = (txId: string, lineKey: string) =>
  unwrap(api.POST("/api/v1/tax-pack/items", { body: { tx_id: txId, mode: "include", line_key: lineKey } }));

export const exclude = (txId: string) =>
  unwrap(api.POST("/api/v1/tax-pack/items", { body: { tx_id: txId, mode: "exclude", line_key: null } }));

export const clearOverride = (txId: string) =>
  unwrap(api.DELETE("/api/v1/tax-pack/items/{tx_id}", { params: { path: { tx_id: txId } } }));

/** The year's zip: the body itself (a small year), or 202 with the build in steps (a large one). */
export const fetchExport = (year: number) =>
  api.GET("/api/v1/tax-pack/export", { params: { query: { year } }, parseAs: "blob" });

export const loadBuild = () => unwrap(api.GET("/api/v1/tax-pack/export/jobs/current"));

export const fetchBuilt = (jobId: string) =>
  api.GET("/api/v1/tax-pack/export/jobs/{job_id}/file", {
    params: { path: { job_id: jobId } },
    parseAs: "blob",
  });

export type TaxMapping = S["TaxMappingDocument"];

export const loadMapping = () => unwrap(api.GET("/api/v1/tax-pack/mapping"));

export const saveMapping = (mapping: TaxMapping) =>
  unwrap(api.PUT("/api/v1/tax-pack/mapping", { body: mapping }));

export const dropMapping = () => unwrap(api.DELETE("/api/v1/tax-pack/mapping"));
