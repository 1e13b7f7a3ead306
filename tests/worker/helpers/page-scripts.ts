export { bootScriptOf, inlineScripts, scriptsBeforeHydration } from "../../../scripts/page-scripts.mjs";
