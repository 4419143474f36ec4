// Short names for the generated schema types the pages use.
import type { components } from "./schema";

type S = components["schemas"];
export type Transaction = S["TransactionResponse"];
export type TransactionDetail = S["TransactionDetailResponse"];
export type CategoryAudit = NonNullable<S["CategoryAudit"]>;
export type Journal = S["JournalResponse"];
export type JournalDay = S["JournalDay"];
export type Summary = S["SummaryComparisonResponse"];
export type Health = S["HealthResponse"];
export type AppConfig = S["AppConfigResponse"];
export type AppConfigUpdate = S["AppConfigUpdateRequest"];
export type SearchResult = S["SearchResponse"];
export type ActivityEntry = S["ActivityEntry"];
export type ApiToken = S["ApiToken"];
export type IssuedToken = S["ApiTokenIssueResponse"];
export type ParseFailure = S["ParseFailureSummary"];
export type ParseFailureDetail = S["ParseFailureDetail"];
export type ManualResolve = S["ManualResolveRequest"];
/** The transaction types of the contract (one list: the API's enum). */
export type TxType = S["ManualResolveRequest"]["transaction_type"];
export type UploadResult = S["UploadEmlResponse"];
export type CategoryWithGroup = S["CategoryWithGroup"];
export type OverrideEntry = S["OverrideEntry"];
export type Whoami = S["WhoamiResponse"];
export type SetupStatus = S["SetupStatusResponse"];
