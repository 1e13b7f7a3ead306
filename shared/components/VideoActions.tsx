import type { Video } from "../catalogue/types";
import { useLibrary } from "./library-context";
import { useRootData } from "./useRootData";
import { Icon } from "../player/icons";
import { useReportDialog } from "./useReportDialog";

/**
 * Shares a video: the browser's share sheet when there is one, otherwise the
 * link goes to the clipboard and an alert says so (spec §7). Failures are only
 * logged; a cancelled share sheet (AbortError) is not a failure.
 */
export async function shareVideo(data: { title: string; text: string; url: string }): Promise<void> {
  try {
    if (typeof navigator.share === "function") {
      await navigator.share(data);
      return;
    }
    await navigator.clipboard.writeText(data.url);
    window.alert("链接已复制到剪贴板");
  } catch (error) {
    if ((error as DOMException)?.name === "AbortError") console.info("分享已取消");
    else console.error("分享失败", error);
  }
}

/** Favourite, share and 报错 (a playback problem of `episode`: the dialog loads when opened) under the player. */
export function VideoActions({ video, episode = 1 }: { video: Video; episode?: number }) {
  const { library, toggleFavourite } = useLibrary();
  const { config, user } = useRootData();
  const report = useReportDialog();
  const favourite = library.favourites.includes(video.id);
  return (
    <div className="video-actions">
      <button
        type="button"
        className={`button action-button${favourite ? " is-active" : ""}`}
        aria-pressed={favourite}
        onClick={() => toggleFavourite(video.id)}
      >
        <Icon name="heart" size={20} />
        {favourite ? "已收藏" : "收藏"}
      </button>
      <button
        type="button"
        className="button action-button"
        onClick={() =>
          void shareVideo({
            title: `${video.title} - ${config.siteName}`,
            text: video.description,
            url: `${config.origin || window.location.origin}/video/${video.id}`,
          })
        }
      >
        <Icon name="share" size={20} />
        分享
      </button>
      <button
        type="button"
        className="button action-button"
        aria-haspopup="dialog"
        onClick={() => report.open({ kind: "playback", titleId: video.id, episode, signedIn: user !== null })}
      >
        <Icon name="report" size={20} />
        报错
      </button>
      {report.dialog}
    </div>
  );
}
