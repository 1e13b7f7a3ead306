/**
 * The early start of hls.js: a second entry of the client build that a player page's boot script
 * adds at once where hls.js will play (client/inline/page-boot.ts), before the page's own
 * modules. It starts hls.js on the server's `<video data-stream>` with the player's configuration
 * (hls-playback.ts, startHls); the player takes that playback over when it hydrates
 * (stream-engine.ts), and the page's modules follow once the video has a head start
 * (EARLY_HLS_EVENT). No early start where the visitor chose a 清晰度 other than 自动 (the player
 * then starts on that rendition itself) or where hls.js cannot play: the event fires at once.
 * docs/decisions/0058-early-hls-start.md.
 */
import { parseQuality } from "../shared/stored-prefs";
import { storedPref } from "./stored-pref";
import { playerConfig } from "../shared/playback/config";
import { EARLY_HLS_EVENT } from "../shared/playback/engine-choice";
import { loadHls } from "../shared/player/load-hls";
import { bufferedAhead, setEarlyHls, startHls } from "../shared/player/hls-playback";

let signalled = false;
/** Lets the page's modules come (once). */
function letPageFollow(): void {
  if (signalled) return;
  signalled = true;
  document.dispatchEvent(new Event(EARLY_HLS_EVENT));
}

/** The stored 清晰度 (自动 when none, or when storage is unavailable: what the player would read). */
const storedQuality = () => parseQuality(storedPref("quality"));

async function start(): Promise<void> {
  const video = document.querySelector<HTMLVideoElement>("video[data-stream]");
  const master = video?.dataset.stream;
  // The player already runs (a late boot) or the visitor chose a rendition: nothing to start early.
  if (!video || !master || video.hasAttribute("src") || storedQuality() !== "auto") return letPageFollow();
  const Hls = await loadHls();
  if (!Hls.isSupported() || !video.isConnected || video.hasAttribute("src")) return letPageFollow();
  const playback = startHls(Hls, video, master, "auto");
  setEarlyHls(playback);
  const cfg = playerConfig.hls;
  const check = () => {
    const headStart = video.paused ? playback.segments >= cfg.earlyStartSegments : bufferedAhead(video) >= cfg.earlyStartBufferSeconds;
    if (headStart || playback.fatal !== null) letPageFollow();
  };
  playback.hls.on(Hls.Events.FRAG_BUFFERED, check);
  playback.hls.on(Hls.Events.ERROR, check);
  video.addEventListener("playing", check);
}

start().catch(letPageFollow);
