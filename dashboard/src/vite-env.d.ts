/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The Worker's origin when the dashboard is deployed apart from it (Pages); empty otherwise. */
  readonly VITE_API_BASE_URL?: string;
  /** ISO 4217 code for amounts (default CAD, shown with its narrow symbol, "$"). */
  readonly VITE_CURRENCY?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
