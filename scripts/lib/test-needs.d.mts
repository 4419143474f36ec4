export declare const MARKERS: Record<"imap" | "modelServer", string>;
export declare function serversNeeded(files: string[]): Set<keyof typeof MARKERS>;
