import { type AppContext, serviceCtx } from "../../../http/context";
import { json, route } from "../../../http/route";
import { mappingDoc } from "../mapping";
import { deleteMapping, effectiveMapping, loadMappingInfo, putMapping } from "../mapping-store";
import { TaxMappingDocument, TaxMappingResponse } from "../schemas";
import { TaxRoute } from "./base";

/** The response: the mapping in effect given its stored document (read, or just written). */
const describeDoc = ({ mapping, personal }: ReturnType<typeof effectiveMapping>) => ({
  personal,
  mapping: mappingDoc(mapping),
});
const describe = async (c: AppContext) => describeDoc(await loadMappingInfo(serviceCtx(c)));

export const GetTaxMapping = route(TaxRoute, {
  operationId: "getTaxMapping",
  summary: "The claim-line mapping in effect (personal, or the packaged one)",
  responses: { "200": json("The mapping", TaxMappingResponse) },
  handle: async (_ctx, _, c) => describe(c),
});

export const PutTaxMapping = route(TaxRoute, {
  operationId: "putTaxMapping",
  summary: "Replace the packaged mapping with a personal one",
  description:
    "Stored in D1 with an R2 JSON backup. 422 names every problem in words (a category claimed by two " +
    "lines, a duplicate or reserved key, an empty label). Journaled and reversible.",
  request: { body: { content: { "application/json": { schema: TaxMappingDocument } }, required: true } },
  responses: { "200": json("The mapping now in effect", TaxMappingResponse) },
  handle: async (ctx, { body }) => {
    const { after } = await putMapping(ctx, body);
    return describeDoc(effectiveMapping(after));
  },
});

export const DeleteTaxMapping = route(TaxRoute, {
  operationId: "deleteTaxMapping",
  summary: "Drop the personal mapping; the packaged one applies again",
  description: "Journaled and reversible.",
  responses: { "200": json("The mapping now in effect", TaxMappingResponse) },
  handle: async (ctx) => {
    await deleteMapping(ctx);
    return describeDoc(effectiveMapping(null));
  },
});
