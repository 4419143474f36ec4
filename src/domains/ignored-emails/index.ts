import { SendIgnoredToReview, ListIgnoredEmails } from "./routes";
import { domainRouter } from "../../http/route";

export function ignoredEmailsRouter() {
  const router = domainRouter();
  router.get("/", ListIgnoredEmails);
  router.post("/:ignored_id/bank-alert", SendIgnoredToReview);
  return router;
}
