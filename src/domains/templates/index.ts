import {
  DeleteTemplate,
  ListTemplates,
  AcceptTemplateOffer,
  ListTemplateOffers,
  RenameTemplate,
  TestTemplate,
} from "./routes";
import { domainRouter } from "../../http/route";
import type { Reverters } from "../activity/reverters";
import { currentTemplate, restoreTemplate } from "./service";

/** Mounted at /api/v1/templates. */
export function templatesRouter() {
  const router = domainRouter();
  router.get("/", ListTemplates);
  router.get("/offers", ListTemplateOffers);
  router.post("/offers/:tx_id/accept", AcceptTemplateOffer);
  router.patch("/:template_id", RenameTemplate);
  router.delete("/:template_id", DeleteTemplate);
  router.post("/:template_id/test", TestTemplate);
  return router;
}

/** Activity revert of rename/delete: whole-row images keyed by the template id. */
export const templateReverters: Reverters = {
  alert_template: {
    current: (ctx, id) => currentTemplate(ctx, id),
    restore: (ctx, id, before, opts) => restoreTemplate(ctx, { id, image: before, journal: opts.journal }),
  },
};
