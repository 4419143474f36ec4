import { domainRouter } from "../../http/route";
import { UploadEml } from "./routes/upload-eml";

export function ingestionRouter() {
  const router = domainRouter();
  router.post("/upload-eml", UploadEml);
  return router;
}
