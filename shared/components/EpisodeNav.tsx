import { Link, useNavigate } from "../router";
import type { Video } from "../catalogue/types";
import { episodeName, nextEpisode, previousEpisode, videoPath } from "../episodes";
import { useEpisodeKeys } from "./useEpisodeKeys";

/** 上一集 / 下一集 as links (they work without JavaScript), and their shortcuts P / N. */
export function EpisodeNav({ video, episode }: { video: Video; episode: number }) {
  const navigate = useNavigate();
  const previous = previousEpisode(video, episode);
  const next = nextEpisode(video, episode);
  useEpisodeKeys((key) => {
    const target = key === "next" ? next : previous;
    if (target === null) return false;
    void navigate(videoPath(video.id, target), { preventScrollReset: true });
    return true;
  });
  return (
    <nav className="episode-nav" aria-label="剧集导航">
      <EpisodeLink video={video} target={previous} rel="prev" label="上一集" shortcut="P" />
      <span className="episode-nav-current">{episodeName(video, episode)}</span>
      <EpisodeLink video={video} target={next} rel="next" label="下一集" shortcut="N" />
    </nav>
  );
}

/** One of the two links, or a disabled stand-in at the first / last episode. */
function EpisodeLink({ video, target, rel, label, shortcut }: { video: Video; target: number | null; rel: "prev" | "next"; label: string; shortcut: string }) {
  if (target === null) return <span className="button button-ghost is-disabled">{label}</span>;
  return (
    <Link
      to={videoPath(video.id, target)}
      className="button button-ghost"
      rel={rel}
      aria-keyshortcuts={shortcut}
      title={`${label}：${episodeName(video, target)}（${shortcut}）`}
      preventScrollReset
    >
      {label}
    </Link>
  );
}
