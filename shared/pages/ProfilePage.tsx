import { Link, useLoaderData, useNavigate } from "react-router";
import { useAccount } from "../account-context";
import { getVideo } from "../catalogue/index";
import { DeviceList } from "../components/DeviceList";
import { PageMeta } from "../components/PageMeta";
import { daysSince, formatDate, formatTime } from "../format";
import { useLibrary } from "../library";
import type { SessionUser } from "../session-user";
import { COVER_HEIGHT, COVER_WIDTH, FALLBACK_COVER } from "../components/VideoCard";

export interface ProfileData {
  user: SessionUser;
  /** Server time of the render, so "days used" is the same on both sides. */
  now: number;
}

function Thumb({ id }: { id: string }) {
  const video = getVideo(id);
  if (!video) return null;
  return <img src={`/${video.coverImage}`} data-fallback={FALLBACK_COVER} alt="" width={COVER_WIDTH} height={COVER_HEIGHT} loading="lazy" decoding="async" />;
}

export function ProfilePage() {
  const { user, now } = useLoaderData<ProfileData>();
  const { library, ready } = useLibrary();
  const account = useAccount();
  const navigate = useNavigate();
  const favourites = library.favourites.filter((id) => getVideo(id));
  const history = library.history.filter((h) => getVideo(h.id));

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
          <dd>{ready ? favourites.length : "—"}</dd>
        </div>
        <div>
          <dt>观看记录</dt>
          <dd>{ready ? history.length : "—"}</dd>
        </div>
        <div>
          <dt>账号状态</dt>
          <dd className="status-ok">正常</dd>
        </div>
      </dl>

      <section className="home-section" aria-labelledby="fav-title">
        <h2 id="fav-title" className="section-title">
          我的收藏
        </h2>
        {favourites.length > 0 ? (
          <ul className="profile-list">
            {favourites.map((id) => (
              <li key={id}>
                <Link to={`/video/${id}`} className="profile-item">
                  <Thumb id={id} />
                  <span className="profile-item-title">{getVideo(id)?.title}</span>
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{ready ? "还没有收藏，去发现喜欢的作品吧。" : "正在读取…"}</p>
        )}
      </section>

      <section className="home-section" aria-labelledby="history-title">
        <h2 id="history-title" className="section-title">
          观看记录
        </h2>
        {history.length > 0 ? (
          <ul className="profile-list">
            {history.map((h) => (
              <li key={h.id}>
                <Link to={`/video/${h.id}`} className="profile-item">
                  <Thumb id={h.id} />
                  <span className="profile-item-title">{getVideo(h.id)?.title}</span>
                  <span className="profile-item-meta">
                    看到 {formatTime(h.position)}
                    {h.duration > 0 ? ` / ${formatTime(h.duration)}` : ""} · 继续观看
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{ready ? "暂无观看记录。" : "正在读取…"}</p>
        )}
      </section>

      <DeviceList />
    </>
  );
}
