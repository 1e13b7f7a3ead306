import { useLoaderData } from "../router";
import { categoryDisplayName } from "../catalogue/categories";
import { ContinueWatching } from "../components/ContinueWatching";
import { PageMeta } from "../components/PageMeta";
import { PageLink } from "../components/PageLink";
import { SectionHeader } from "../components/SectionHeader";
import { VideoGrid } from "../components/VideoGrid";
import type { HomeData } from "../loaders";
import { weekdayName } from "../schedule";
import { useRootData } from "../components/useRootData";

const REASONS = [
  { title: "完全免费", text: "所有内容免费观看，无需会员，无需付费，打开即看。" },
  { title: "高清流畅", text: "边缘节点就近分发，支持拖动即播，建议带宽 5 Mbps 即可畅享高清。" },
  { title: "海量内容", text: "电影、电视剧、综艺、纪录片分类齐全，持续更新优质作品。" },
  { title: "多端适配", text: "手机、平板、电脑均可访问，界面自适应，随时随地观看。" },
];

export function HomePage() {
  const data = useLoaderData<HomeData>();
  const { config } = useRootData();
  return (
    <>
      <PageMeta
        title="免费高清影视在线观看"
        description={`${config.siteName}：免费在线观看最新电影、热门电视剧、综艺节目与精选纪录片，高清流畅，无需注册。`}
        path="/"
      />
      <section className="hero" aria-labelledby="hero-title">
        <h1 id="hero-title" className="hero-title">
          {config.heroTitle}
        </h1>
        <p className="hero-text">{config.heroText}</p>
        <div className="hero-actions">
          <PageLink to="/category/电影" className="button button-primary button-large">
            浏览电影
          </PageLink>
          <PageLink to="/category/电视剧" className="button button-secondary button-large">
            热门剧集
          </PageLink>
          <PageLink to="/ranking" className="button button-secondary button-large">
            排行榜
          </PageLink>
        </div>
      </section>

      <section className="category-tiles" aria-label="分类">
        {data.counts.map(({ name, count }) => (
          <PageLink key={name} to={`/category/${name}`} className="category-tile">
            <span className="category-tile-icon" aria-hidden="true">
              {name.slice(0, 1)}
            </span>
            <span className="category-tile-name">{categoryDisplayName(name)}</span>
            <span className="category-tile-count">{`${count} 部作品`}</span>
          </PageLink>
        ))}
      </section>

      <ContinueWatching />

      {data.todayUpdates.length > 0 ? (
        <section className="home-section home-today" aria-labelledby="today-title">
          <SectionHeader id="today-title" title={`今日更新 · ${weekdayName(data.today)}`} moreHref="/schedule" moreLabel="追剧周表" />
          <VideoGrid items={data.todayUpdates} layout="row" />
        </section>
      ) : null}

      <section className="home-section" aria-labelledby="hot-title">
        <SectionHeader id="hot-title" title="热门推荐" moreHref="/category/all" />
        <VideoGrid items={data.hot} eagerCount={2} />
      </section>

      <section className="home-section" aria-labelledby="latest-title">
        <SectionHeader id="latest-title" title="最新更新" moreHref="/latest" />
        <VideoGrid items={data.latest} />
      </section>

      <section className="home-section" aria-labelledby="top-title">
        <SectionHeader id="top-title" title="高分推荐" moreHref="/top-rated" />
        <VideoGrid items={data.topRated} />
      </section>

      <section className="why-us" aria-labelledby="why-title">
        <h2 id="why-title" className="section-title">
          {`为什么选择${config.siteName}`}
        </h2>
        <div className="why-grid">
          {REASONS.map((r) => (
            <div key={r.title} className="why-item">
              <h3>{r.title}</h3>
              <p>{r.text}</p>
            </div>
          ))}
        </div>
      </section>
    </>
  );
}
