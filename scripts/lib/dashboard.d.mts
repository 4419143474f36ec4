export declare const root: string;
export declare function dashboardStale(): boolean;
export declare function buildDashboard(opts?: { quiet?: boolean }): boolean;
export declare function ensureDashboardDist(opts?: { quiet?: boolean }): string;
export declare function ensureAssetsFolder(): string;
export declare function ensureDocsAssets(dist: string): string;
