import { contentJson } from "chanfana";
import { json, route } from "../../../http/route";
import { ErrorEnvelope } from "../../../http/errors";
import { acceptOffer, listOffers } from "../offers";
import { AcceptOfferRequest, OfferTxParams, TemplateOfferListResponse, TemplateSummary } from "../schemas";
import { toSummary } from "../service";
import { NOT_FOUND, TemplatesRoute } from "./base";

export const ListTemplateOffers = route(TemplatesRoute, {
  operationId: "listAlertTemplateOffers",
  summary: "Templates offered from AI-rescued alerts of banks no parser reads yet",
  description: "Each AI-rescued row awaiting review whose values are printed verbatim in its email.",
  responses: { "200": json("The offers, one per sender domain", TemplateOfferListResponse) },
  handle: async (ctx) => listOffers(ctx),
});

export const AcceptTemplateOffer = route(TemplatesRoute, {
  operationId: "acceptAlertTemplateOffer",
  summary: "Save the template offered from an AI-rescued alert",
  description: "Journaled (revert deletes the template). Disabled in demo mode.",
  request: { params: OfferTxParams, body: { ...contentJson(AcceptOfferRequest), required: true } },
  responses: {
    "200": json("The saved template", TemplateSummary),
    ...NOT_FOUND,
    "409": json("The row offers no template", ErrorEnvelope),
  },
  handle: async (ctx, { params, body }) => {
    const row = await acceptOffer(ctx, { txId: params.tx_id, institution: body.institution });
    return toSummary(row);
  },
});
