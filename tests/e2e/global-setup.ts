import type { TestProject } from "vitest/node";

/** Port of the site under test (not 8787, so a running `npm start` does not clash). */
const PORT = Number(process.env.E2E_PORT ?? 8791);

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
  }
}

/**
 * Serves the built site with `wrangler dev` (the same command as `npm start`)
 * on its own port, with the local bindings prepared (scripts/local-site.mjs).
 */
export default async function setup(project: TestProject) {
  const { startLocalSite } = await import("../../scripts/local-site.mjs");
  const site = await startLocalSite({ port: PORT });
  project.provide("baseURL", site.baseURL);
  return () => site.stop();
}
