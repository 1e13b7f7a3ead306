import { Link } from "../router";
import { cardEnded, libraryEpisodeName, type LibraryCard } from "../catalogue/card";
import { videoPath } from "../episodes";
import { formatTime } from "../format";
import { useLibrary } from "../components/library-context";
import { PageMeta } from "../components/PageMeta";
import { useTitleCards } from "../components/useTitleCards";
import { COVER_HEIGHT, COVER_WIDTH, FALLBACK_COVER } from "../components/VideoCard";
import { entryEpisode, type Library } from "../library";
import { followStatus, hasNewEpisode, type ListItem } from "../series-lists";

function Cover({ card }: { card: LibraryCard }) {
  return (
    <span className="continue-cover">
      <img src={card.cover} data-fallback={FALLBACK_COVER} alt="" width={COVER_WIDTH} height={COVER_HEIGHT} loading="lazy" decoding="async" />
    </span>
  );
}

/** Where the viewer stopped in a series: the episode watched last and the time in it. */
function stoppedAt(library: Library, card: LibraryCard): { text: string; path: string } {
  const entry = library.history.find((h) => h.id === card.id);
  if (!entry) return { text: "还没开始看", path: videoPath(card.id) };
  const episode = entryEpisode(entry);
  return { text: `看到${libraryEpisodeName(card, episode)} ${formatTime(entry.position)}`, path: videoPath(card.id, episode) };
}

function FollowItem({ item, card, library }: { item: ListItem; card: LibraryCard; library: Library }) {
  const stopped = stoppedAt(library, card);
  const fresh = hasNewEpisode(item, card.episodeCount);
  return (
    <li>
      <Link to={stopped.path} className="continue-item">
        <Cover card={card} />
        <span className="continue-title">
          {card.title}
          {fresh ? (
            <span className="badge-new" title="有新剧集">
              新
            </span>
          ) : null}
        </span>
        <span className="continue-meta">{followStatus(card.episodeCount, cardEnded(card))}</span>
        <span className="continue-meta">{stopped.text}</span>
      </Link>
    </li>
  );
}

/** 我的片单 (/library): 我的追剧 with each series' state and where the viewer stopped, and 稍后再看. */
export function LibraryPage() {
  const { library, lists, ready, toggleList, prefs, setPrefs } = useLibrary();
  const cards = useTitleCards([...lists.follows.map((i) => i.id), ...lists.watchLater.map((i) => i.id)], ready);
  const loaded = ready && cards !== null;
  const follows = cards ? lists.follows.flatMap((item) => (cards.has(item.id) ? [{ item, card: cards.get(item.id) as LibraryCard }] : [])) : [];
  const later = cards ? lists.watchLater.flatMap((item) => (cards.has(item.id) ? [{ item, card: cards.get(item.id) as LibraryCard }] : [])) : [];
  return (
    <>
      <PageMeta title="我的片单" description="我的追剧与稍后再看。" path="/library" noindex />
      <div className="page-header">
        <h1 className="page-title">我的片单</h1>
        <p className="page-subtitle">登录后在所有设备上同步</p>
      </div>

      <section className="home-section" aria-labelledby="follows-title">
        <h2 id="follows-title" className="section-title">
          我的追剧
        </h2>
        {follows.length > 0 ? (
          <ul className="continue-list library-list">
            {follows.map(({ item, card }) => (
              <FollowItem key={item.id} item={item} card={card} library={library} />
            ))}
          </ul>
        ) : (
          <p className="muted">{loaded ? "还没有追剧，在剧集页点「追剧」即可。" : "正在读取…"}</p>
        )}
      </section>

      <section className="home-section" aria-labelledby="later-title">
        <h2 id="later-title" className="section-title">
          稍后再看
        </h2>
        <label className="library-setting">
          <input
            type="checkbox"
            checked={prefs.watchLaterAutoRemove}
            disabled={!ready}
            onChange={(e) => setPrefs({ watchLaterAutoRemove: e.target.checked })}
          />
          看完后自动移出稍后再看
        </label>
        {later.length > 0 ? (
          <ul className="continue-list library-list">
            {later.map(({ item, card }) => (
              <li key={item.id} className="library-later">
                <Link to={videoPath(card.id)} className="continue-item">
                  <Cover card={card} />
                  <span className="continue-title">{card.title}</span>
                </Link>
                <button
                  type="button"
                  className="button button-ghost library-remove"
                  onClick={() => toggleList("watchLater", item.id)}
                  aria-label={`从稍后再看移除「${card.title}」`}
                >
                  移除
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{loaded ? "稍后再看是空的。" : "正在读取…"}</p>
        )}
      </section>
    </>
  );
}
