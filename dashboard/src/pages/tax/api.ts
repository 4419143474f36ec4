// The tax pack API calls of the Tax page (typed by the generated schema).
import { API_BASE, api, unwrap } from "../../api/client";
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

/** A plain link: the browser streams the zip to disk (cookies ride along on the same origin). */
export const exportUrl = (year: number) => `${API_BASE}/api/v1/tax-pack/export?year=${year}`;

export type TaxMapping = S["TaxMappingDocument"];

export const loadMapping = () => unwrap(api.GET("/api/v1/tax-pack/mapping"));

export const saveMapping = (mapping: TaxMapping) =>
  unwrap(api.PUT("/api/v1/tax-pack/mapping", { body: mapping }));

export const dropMapping = () => unwrap(api.DELETE("/api/v1/tax-pack/mapping"));
