import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
  }
}

/**
 * Serves the built site with `wrangler dev` (the same command as `npm start`)
 * on a free port ($E2E_PORT when set), with the local bindings prepared (scripts/local-site.mjs).
 * A fixed port would let a run talk to another checkout's site, or to a running `npm start`.
 */
export default async function setup(project: TestProject) {
  const { freePort, startLocalSite } = await import("../../scripts/local-site.mjs");
  const site = await startLocalSite({ port: process.env.E2E_PORT ? Number(process.env.E2E_PORT) : await freePort() });
  project.provide("baseURL", site.baseURL);
  return () => site.stop();
}
