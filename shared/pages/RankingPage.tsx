import { Link, useLoaderData } from "../router";
import { PageMeta } from "../components/PageMeta";
import { VideoCard } from "../components/VideoCard";
import { RANKING_PERIODS, rankingHref, type RankingData } from "../ranking";

const EMPTY_TEXT: Record<RankingData["period"], string> = {
  day: "今天还没有播放记录",
  week: "最近 7 天还没有播放记录",
  month: "最近 30 天还没有播放记录",
};

/** 排行榜: the most played titles of the day, the last 7 days or the last 30 days (tabs are links: no JavaScript needed). */
export function RankingPage() {
  const data = useLoaderData<RankingData>();
  const current = RANKING_PERIODS.find((p) => p.value === data.period) ?? RANKING_PERIODS[0];
  return (
    <>
      <PageMeta
        title={`排行榜 - ${current.label}`}
        description="播放排行榜：按日、周、月统计的最热门电影、电视剧、综艺与纪录片，免费高清在线观看。"
        path={rankingHref(data.period)}
      />
      <div className="page-header">
        <h1 className="page-title">排行榜</h1>
        <p className="page-subtitle">{data.from === data.to ? `${data.to}（UTC）播放次数` : `${data.from} 至 ${data.to}（UTC）播放次数`}</p>
      </div>
      <nav className="ranking-tabs" aria-label="排行榜周期">
        {RANKING_PERIODS.map((p) => (
          <Link key={p.value} to={rankingHref(p.value)} className="view-button" aria-current={p.value === data.period ? "page" : undefined}>
            {p.label}
          </Link>
        ))}
      </nav>
      {data.items.length > 0 ? (
        <ol className="ranking-list">
          {data.items.map((item, index) => (
            <li key={item.id} className="ranking-item">
              {/* The number for the eye, 第N名 for a screen reader (aria-label is not allowed on a plain span). */}
              <span className={index < 3 ? "ranking-rank ranking-rank-top" : "ranking-rank"}>
                <span aria-hidden="true">{index + 1}</span>
                <span className="visually-hidden">第{index + 1}名</span>
              </span>
              <VideoCard item={item} layout="list" eager={index < 1} headingLevel={2} />
            </li>
          ))}
        </ol>
      ) : (
        <div className="empty-state" role="status">
          <p className="empty-title">{EMPTY_TEXT[data.period]}</p>
          <p className="empty-hint">
            去<Link to="/latest">最新更新</Link>看看吧
          </p>
        </div>
      )}
    </>
  );
}
