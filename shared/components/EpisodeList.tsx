import { useState } from "react";
import { Link } from "../router";
import type { Video } from "../catalogue/types";
import { episodeCount, episodeName, episodeRanges, episodeStatus, orderedRanges, rangeEpisodes, rangeIndexOf, videoPath, type EpisodeOrder } from "../episodes";

/**
 * The 选集 grid: a link per episode (so it works without JavaScript and crawlers find every
 * episode), the current one marked with aria-current, 正序/倒序, and range tabs (1-50, 51-100 …)
 * for long series. Every range's links are in the HTML; the ranges other than the current
 * episode's are hidden. A range tab is a link to the range's first episode, so without
 * JavaScript it opens that range; with JavaScript it only switches the list.
 */
export function EpisodeList({ video, episode }: { video: Video; episode: number }) {
  const count = episodeCount(video);
  const ranges = episodeRanges(count);
  const [order, setOrder] = useState<EpisodeOrder>("asc");
  const [range, setRange] = useState(() => rangeIndexOf(episode));
  const status = episodeStatus(video);
  return (
    <section className="episodes" aria-labelledby="episodes-title">
      <div className="episodes-head">
        <h2 id="episodes-title" className="section-title">
          选集
        </h2>
        {status ? <span className="episodes-status">{status}</span> : null}
        <button
          type="button"
          className="episodes-order"
          aria-label={order === "asc" ? "正序，切换为倒序" : "倒序，切换为正序"}
          onClick={() => setOrder(order === "asc" ? "desc" : "asc")}
        >
          {order === "asc" ? "正序" : "倒序"}
        </button>
      </div>
      {ranges.length > 1 ? (
        <nav className="episodes-ranges" aria-label="选集范围">
          {orderedRanges(ranges, order).map((r) => {
            const index = rangeIndexOf(r.from);
            return (
              <Link
                key={r.label}
                to={videoPath(video.id, r.from)}
                className="episodes-range"
                aria-current={index === range ? "true" : undefined}
                onClick={(event) => {
                  event.preventDefault();
                  setRange(index);
                }}
              >
                {r.label}
              </Link>
            );
          })}
        </nav>
      ) : null}
      {ranges.map((r, index) => (
        <ol key={r.label} className="episodes-grid" hidden={index !== range} aria-label={`第${r.from}-${r.to}集`}>
          {rangeEpisodes(r, order).map((n) => {
            const name = episodeName(video, n);
            return (
              <li key={n}>
                <Link to={videoPath(video.id, n)} className="episode-link" aria-current={n === episode ? "page" : undefined} title={name} preventScrollReset>
                  {name === `第${n}集` ? n : name}
                </Link>
              </li>
            );
          })}
        </ol>
      ))}
    </section>
  );
}
