import { useEffect, useState } from "react";
import type { Video } from "../catalogue/types";
import { inList, LIST_LIMIT } from "../series-lists";
import { momentUrl } from "../playback/start-time";
import { useLibrary } from "./library-context";
import { useRootData } from "./useRootData";
import { ActionIcon } from "./action-icons";
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

/** 收藏, 追剧 (series), 稍后再看, 分享 and 报错 (a playback problem of `episode`: the dialog loads when opened) under the player. */
export function VideoActions({ video, episode = 1 }: { video: Video; episode?: number }) {
  const { library, toggleFavourite, lists, toggleList, markSeen, ready } = useLibrary();
  const { config, user } = useRootData();
  const report = useReportDialog();
  const [full, setFull] = useState<string | null>(null);
  const favourite = library.favourites.includes(video.id);
  const episodes = video.episodes?.length;
  const followed = inList(lists, "follows", video.id);
  const later = inList(lists, "watchLater", video.id);
  // Opening a followed series sees its episodes: its 新 badge in 我的追剧 goes.
  useEffect(() => {
    if (ready && followed && episodes !== undefined) markSeen(video.id, episodes);
  }, [ready, followed, episodes, markSeen, video.id]);
  const toggle = (name: "follows" | "watchLater", label: string) => {
    const done = toggleList(name, video.id, episodes);
    setFull(done ? null : `${label}列表已满（最多${LIST_LIMIT}部），请先移除一些`);
  };
  return (
    <div className="video-actions">
      <button
        type="button"
        className={`button action-button${favourite ? " is-active" : ""}`}
        aria-pressed={favourite}
        onClick={() => toggleFavourite(video.id)}
      >
        <ActionIcon name="heart" size={20} />
        {favourite ? "已收藏" : "收藏"}
      </button>
      {episodes !== undefined ? (
        <button
          type="button"
          className={`button action-button${followed ? " is-active" : ""}`}
          aria-pressed={followed}
          onClick={() => toggle("follows", "追剧")}
        >
          <ActionIcon name={followed ? "followed" : "follow"} size={20} />
          {followed ? "已追剧" : "追剧"}
        </button>
      ) : null}
      <button
        type="button"
        className={`button action-button${later ? " is-active" : ""}`}
        aria-pressed={later}
        onClick={() => toggle("watchLater", "稍后再看")}
      >
        <ActionIcon name="later" size={20} />
        稍后再看
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
        <ActionIcon name="share" size={20} />
        分享
      </button>
      <button
        type="button"
        className="button action-button"
        onClick={() => {
          // The player's time now (the page's one <video>), whole seconds: ?t= opens the link there.
          const player = document.querySelector<HTMLVideoElement>("video.player-video");
          void shareVideo({
            title: `${video.title} - ${config.siteName}`,
            text: video.description,
            url: momentUrl(config.origin || window.location.origin, window.location.pathname, player?.currentTime ?? 0),
          });
        }}
      >
        <ActionIcon name="share" size={20} />
        从当前时间分享
      </button>
      <button
        type="button"
        className="button action-button"
        aria-haspopup="dialog"
        onClick={() => report.open({ kind: "playback", titleId: video.id, episode, signedIn: user !== null })}
      >
        <ActionIcon name="report" size={20} />
        报错
      </button>
      {report.dialog}
      <p className="video-actions-status" role="status">
        {full}
      </p>
    </div>
  );
}
