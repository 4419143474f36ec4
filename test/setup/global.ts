import { ensureDashboardDist } from "../../scripts/lib/dashboard.mjs";

// Runs once on the Node side before the workerd pool starts.
export default function setup(): void {
  ensureDashboardDist();
}
