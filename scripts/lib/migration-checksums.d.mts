export declare const MIGRATIONS_DIR: string;
export declare const CHECKSUMS_FILE: string;
export declare function sha256(text: string | Uint8Array): string;
export declare function currentChecksums(dir?: string): Map<string, string>;
export declare function parseChecksums(text: string): Map<string, string>;
export declare function checkMigrations(dir?: string, listText?: string): string[];
export declare function addNewChecksums(dir?: string): string[];
