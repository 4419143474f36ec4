export declare const root: string;
export declare function ensureDashboardDist(): string;
