import type { TestProject } from "vitest/node";
import { startFakeModel } from "../helpers/fake-model";

/**
 * Starts the fake model server once for the run and hands its URL to the tests
 * (`inject("modelServer")`). Returns the teardown.
 */
export async function setupModel(project: TestProject): Promise<() => Promise<void>> {
  const server = await startFakeModel();
  project.provide("modelServer", { url: server.url });
  return server.close;
}

export default setupModel;
