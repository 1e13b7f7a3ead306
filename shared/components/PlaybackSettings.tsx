import { useLibrary } from "./library-context";

/**
 * 自动跳过片头片尾 and 自动连播 under the player: player preferences, kept in this browser
 * (signed out too) like the volume and the 清晰度 (docs/decisions/0092-intro-outro.md).
 */
export function PlaybackSettings() {
  const { prefs, setPrefs, ready } = useLibrary();
  return (
    <div className="playback-settings">
      <label className="library-setting">
        <input type="checkbox" checked={prefs.autoSkip} disabled={!ready} onChange={(e) => setPrefs({ autoSkip: e.target.checked })} />
        自动跳过片头片尾
      </label>
      <label className="library-setting">
        <input type="checkbox" checked={prefs.autoNext} disabled={!ready} onChange={(e) => setPrefs({ autoNext: e.target.checked })} />
        自动连播
      </label>
    </div>
  );
}
