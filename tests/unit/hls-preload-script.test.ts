import { describe, expect, it } from "vitest";
import { chooseEngine, HLS_MIME, hlsPreloadScript } from "../../shared/player/engine-choice";

/** Runs the inline head script against a stand-in browser; returns the links it added. */
function run(caps: { nativeHls: boolean; mse: boolean; managed?: boolean }, search: string): Array<{ rel?: string; href?: string }> {
  const added: Array<{ rel?: string; href?: string }> = [];
  const document = {
    createElement: (tag: string) => (tag === "video" ? { canPlayType: (type: string) => (type === HLS_MIME && caps.nativeHls ? "maybe" : "") } : {}),
    head: { appendChild: (el: { rel?: string; href?: string }) => added.push(el) },
  };
  const window = caps.managed ? { ManagedMediaSource: function ManagedMediaSource() {} } : caps.mse ? { MediaSource: function MediaSource() {} } : {};
  const script = hlsPreloadScript(["/assets/hls.light-abc.js", "/assets/VideoPlayer-abc.js"]);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the script is the server's inline <script>, run as the browser runs it
  const inBrowser = new Function("document", "window", "location", script) as (d: unknown, w: unknown, l: unknown) => void;
  inBrowser(document, window, { search });
  return added;
}

describe("the hls.js preload script of the detail page's <head>", () => {
  const forcedValues = [null, "native", "hlsjs", "progressive", "other"];
  for (const nativeHls of [true, false])
    for (const mse of [true, false])
      for (const forced of forcedValues)
        it(`native HLS ${nativeHls}, MSE ${mse}, ?engine=${forced}: preloads hls.js exactly when chooseEngine picks it`, () => {
          const added = run({ nativeHls, mse }, forced === null ? "" : `?engine=${forced}`);
          const engine = chooseEngine({ nativeHls, mse }, forced);
          expect(added).toEqual(
            engine === "hlsjs"
              ? [
                  { rel: "modulepreload", href: "/assets/hls.light-abc.js" },
                  { rel: "modulepreload", href: "/assets/VideoPlayer-abc.js" },
                ]
              : [],
          );
        });

  it("counts Safari's ManagedMediaSource as MSE", () => {
    expect(run({ nativeHls: false, mse: false, managed: true }, "")).toHaveLength(2);
  });

  it("cannot end the <script> element early", () => {
    expect(hlsPreloadScript(["/assets/</script><b>.js"])).not.toContain("</script>");
  });
});
