import { json, route } from "../../../http/route";
import { proposeTemplate } from "../proposal";
import { FailureIdParams, TemplateProposalResponse } from "../schemas";
import { CONFLICT, NOT_FOUND, ParseFailuresRoute } from "./base";

export const ProposeTemplate = route(ParseFailuresRoute, {
  operationId: "proposeParseFailureTemplate",
  summary: "The model's reading of a quarantined alert, offered as a template to confirm",
  description:
    "Only when alert reading (the categorization task) has a provider and “Read unknown alerts with AI” " +
    "is on (otherwise nothing is sent and `asked` is false). The model reads the email; its amount, date, " +
    "merchant and currency are kept only when the email prints them, else the reading is refused with " +
    "the reason. Nothing is saved: the person confirms with POST /parse-failures/{failure_id}/resolve " +
    "(`proposed: true`), which teaches the template as a hand resolve does.",
  request: { params: FailureIdParams },
  responses: {
    "200": json("The checked reading, or why there is none", TemplateProposalResponse),
    ...NOT_FOUND,
    ...CONFLICT("Already recovered or resolved"),
  },
  handle: async (ctx, { params }) => proposeTemplate(ctx, params.failure_id),
});
