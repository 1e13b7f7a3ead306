import { inject } from "vitest";
import { waitForSite } from "./site-status";

// Every e2e file starts once the site answers (its start runs alongside the unit and worker tests).
await waitForSite(inject("siteStatusFile"));
