import type { Video } from "../catalogue/types";
import { useLibrary } from "./library-context";
import { useRootData } from "./useRootData";
import { Icon } from "../player/icons";

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

/** Favourite and share buttons under the player. */
export function VideoActions({ video }: { video: Video }) {
  const { library, toggleFavourite } = useLibrary();
  const { config } = useRootData();
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
    </div>
  );
}
