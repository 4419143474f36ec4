export declare const DOCS_DIR: string;
export declare const DOCS_FILES: ReadonlyArray<readonly [pkg: string, file: string, to: string]>;
export declare function copyDocsAssets(dist: string, opts?: { modules?: string }): string[];
