import { domainRouter } from "../../http/route";
import { SendIgnoredToReview } from "./routes/bank-alert";
import { ListIgnoredEmails } from "./routes/list";

export function ignoredEmailsRouter() {
  const router = domainRouter();
  router.get("/", ListIgnoredEmails);
  router.post("/:ignored_id/bank-alert", SendIgnoredToReview);
  return router;
}
