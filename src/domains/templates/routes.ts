import { domainRoute, errors, route, json } from "../../http/route";
import {
  TemplateIdParams,
  TemplateListResponse,
  AcceptOfferRequest,
  OfferTxParams,
  TemplateOfferListResponse,
  TemplateSummary,
  TemplateRenameRequest,
  TemplateTestRequest,
  TemplateTestResponse,
} from "./schemas";
import { deleteTemplate, listTemplates, toSummary, renameTemplate, testTemplate } from "./service";
import { contentJson } from "chanfana";
import { ErrorEnvelope } from "../../http/errors";
import { acceptOffer, listOffers } from "./offers";

export const TemplatesRoute = domainRoute("templates");

export const NOT_FOUND = errors({ "404": "No such template" });

export const DeleteTemplate = route(TemplatesRoute, {
  operationId: "deleteAlertTemplate",
  summary: "Delete a learned template (that bank's alerts are quarantined again)",
  description:
    "Journaled with the whole row as its before image: reverting restores it. Disabled in demo mode.",
  request: { params: TemplateIdParams },
  responses: { "204": { description: "Deleted" }, ...NOT_FOUND },
  handle: async (ctx, { params }, c) => {
    await deleteTemplate(ctx, params.template_id);
    return c.body(null, 204);
  },
});

export const ListTemplates = route(TemplatesRoute, {
  operationId: "listAlertTemplates",
  summary: "Bank alert templates learned from hand-resolved emails",
  description: "Each with its masked example, how many emails it has read, and when it last read one.",
  responses: { "200": json("The learned templates", TemplateListResponse) },
  handle: async (ctx) => listTemplates(ctx),
});

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

export const RenameTemplate = route(TemplatesRoute, {
  operationId: "renameAlertTemplate",
  summary: "Rename a learned template",
  description: "Journaled with before/after images (revertable). Disabled in demo mode.",
  request: { params: TemplateIdParams, body: { ...contentJson(TemplateRenameRequest), required: true } },
  responses: { "200": json("The renamed template", TemplateSummary), ...NOT_FOUND },
  handle: async (ctx, { params, body }) => {
    const { response } = await renameTemplate(ctx, { id: params.template_id, name: body.name });
    return response;
  },
});

export const TestTemplate = route(TemplatesRoute, {
  operationId: "testAlertTemplate",
  summary: "What a learned template would extract from a raw email (nothing is written)",
  request: { params: TemplateIdParams, body: { ...contentJson(TemplateTestRequest), required: true } },
  responses: {
    "200": json("The template's reading, or why it does not read the email", TemplateTestResponse),
    ...NOT_FOUND,
  },
  handle: async (ctx, { params, body }) => testTemplate(ctx, { id: params.template_id, raw: body.raw }),
});
