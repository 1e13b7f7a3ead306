import { Link, useLoaderData, useNavigate } from "../router";
import { useAccount } from "../components/account-context";
import type { TitleCard } from "../catalogue/card";
import { DeviceList } from "../components/DeviceList";
import { PageMeta } from "../components/PageMeta";
import { daysSince, formatDate, formatTime } from "../format";
import { useLibrary } from "../components/library-context";
import type { SessionUser } from "../session-user";
import { COVER_HEIGHT, COVER_WIDTH, FALLBACK_COVER } from "../components/VideoCard";
import { useTitleCards } from "../components/useTitleCards";
import { CommentInbox } from "../components/comments/CommentInbox";

export interface ProfileData {
  user: SessionUser;
  /** Server time of the render, so "days used" is the same on both sides. */
  now: number;
}

function Thumb({ video }: { video: TitleCard }) {
  return <img src={video.cover} data-fallback={FALLBACK_COVER} alt="" width={COVER_WIDTH} height={COVER_HEIGHT} loading="lazy" decoding="async" />;
}

export function ProfilePage() {
  const { user, now } = useLoaderData<ProfileData>();
  const { library, ready } = useLibrary();
  const account = useAccount();
  const navigate = useNavigate();
  const cards = useTitleCards([...library.favourites, ...library.history.map((h) => h.id)], ready);
  const loaded = ready && cards !== null;
  // Titles since removed from the catalogue are not shown.
  const favourites = cards ? library.favourites.flatMap((id) => cards.get(id) ?? []) : [];
  const history = cards ? library.history.flatMap((h) => (cards.has(h.id) ? [{ ...h, video: cards.get(h.id) as TitleCard }] : [])) : [];

  async function signOut() {
    await account.signOut();
    await navigate("/", { replace: true });
  }

  return (
    <>
      <PageMeta title="个人中心" description="查看账号信息、收藏与观看记录。" path="/profile" noindex />
      <div className="profile-header">
        <div className="profile-avatar" aria-hidden="true">
          {user.email.slice(0, 1).toUpperCase()}
        </div>
        <div className="profile-who">
          <h1 className="page-title">个人中心</h1>
          <p className="profile-email">{user.email}</p>
        </div>
        <form
          method="post"
          action="/api/auth/sign-out"
          onSubmit={(e) => {
            e.preventDefault();
            void signOut();
          }}
        >
          <button type="submit" className="button button-ghost">
            退出登录
          </button>
        </form>
      </div>

      <dl className="profile-stats">
        <div>
          <dt>注册时间</dt>
          <dd>{formatDate(user.createdAt)}</dd>
        </div>
        <div>
          <dt>使用天数</dt>
          <dd>{daysSince(user.createdAt, now)} 天</dd>
        </div>
        <div>
          <dt>收藏数量</dt>
          <dd>{loaded ? favourites.length : "—"}</dd>
        </div>
        <div>
          <dt>观看记录</dt>
          <dd>{loaded ? history.length : "—"}</dd>
        </div>
        <div>
          <dt>账号状态</dt>
          <dd className="status-ok">正常</dd>
        </div>
      </dl>

      <p>
        <Link to="/library">我的追剧与稍后再看 ›</Link>
      </p>

      <section className="home-section" aria-labelledby="fav-title">
        <h2 id="fav-title" className="section-title">
          我的收藏
        </h2>
        {favourites.length > 0 ? (
          <ul className="profile-list">
            {favourites.map((video) => (
              <li key={video.id}>
                <Link to={`/video/${video.id}`} className="profile-item">
                  <Thumb video={video} />
                  <span className="profile-item-title">{video.title}</span>
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{loaded ? "还没有收藏，去发现喜欢的作品吧。" : "正在读取…"}</p>
        )}
      </section>

      <section className="home-section" aria-labelledby="history-title">
        <h2 id="history-title" className="section-title">
          观看记录
        </h2>
        {history.length > 0 ? (
          <ul className="profile-list">
            {history.map((h) => (
              <li key={`${h.id}#${h.episode ?? 1}`}>
                <Link to={h.episode ? `/video/${h.id}/${h.episode}` : `/video/${h.id}`} className="profile-item">
                  <Thumb video={h.video} />
                  <span className="profile-item-title">{h.video.title}</span>
                  <span className="profile-item-meta">
                    {h.episode ? `第${h.episode}集 · ` : ""}看到 {formatTime(h.position)}
                    {h.duration > 0 ? ` / ${formatTime(h.duration)}` : ""} · 继续观看
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{loaded ? "暂无观看记录。" : "正在读取…"}</p>
        )}
      </section>

      <CommentInbox />

      <DeviceList />
    </>
  );
}
