import { Link } from "../router";
import { libraryEpisodeName } from "../catalogue/card";
import { videoPath } from "../episodes";
import { formatTime } from "../format";
import { continueWatching } from "../library";
import { useLibrary } from "./library-context";
import { useTitleCards } from "./useTitleCards";
import { COVER_HEIGHT, COVER_WIDTH, FALLBACK_COVER } from "./VideoCard";

/** How many titles the home page's 继续观看 row shows. */
export const CONTINUE_COUNT = 6;

/**
 * 继续观看: the titles the visitor was watching (browser storage; it holds the account's library
 * when signed in), with the episode and the position, each linking to that episode. Shown only
 * once the library is read (never on the server, so the page's HTML is the same for everyone).
 */
export function ContinueWatching() {
  const { library, ready } = useLibrary();
  // The cards (title, cover, episode count) of the titles watched last, asked of the worker.
  const recent = [...new Set(library.history.map((h) => h.id))].slice(0, CONTINUE_COUNT * 2);
  const cards = useTitleCards(recent, ready);
  const items = ready && cards ? continueWatching(library, CONTINUE_COUNT, (id) => cards.get(id)?.episodeCount) : [];
  if (!cards || items.length === 0) return null;
  return (
    <section className="home-section" aria-labelledby="continue-title">
      <h2 id="continue-title" className="section-title">
        继续观看
      </h2>
      <ul className="continue-list">
        {items.map((item) => {
          const video = cards.get(item.id);
          if (!video) return null;
          const series = video.episodeCount > 1 || video.totalEpisodes !== null;
          const where = item.position > 0 ? `看到 ${formatTime(item.position)}` : "从头播放";
          const progress = item.duration > 0 ? Math.min(100, (item.position / item.duration) * 100) : 0;
          return (
            <li key={item.id}>
              <Link to={series ? videoPath(item.id, item.episode) : videoPath(item.id)} className="continue-item">
                <span className="continue-cover">
                  <img src={video.cover} data-fallback={FALLBACK_COVER} alt="" width={COVER_WIDTH} height={COVER_HEIGHT} loading="lazy" decoding="async" />
                  <span className="continue-progress" style={{ width: `${progress.toFixed(1)}%` }} />
                </span>
                <span className="continue-title">{video.title}</span>
                <span className="continue-meta">
                  {series ? `${libraryEpisodeName(video, item.episode)} · ` : ""}
                  {where}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
