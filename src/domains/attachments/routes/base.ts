import { domainRoute } from "../../../http/route";

export const AttachmentsRoute = domainRoute("attachments");
