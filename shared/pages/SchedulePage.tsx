import { Link, useLoaderData } from "../router";
import { PageMeta } from "../components/PageMeta";
import { VideoGrid } from "../components/VideoGrid";
import type { ScheduleData } from "../loaders";
import { scheduleHref, weekdayName, weekdaysFrom } from "../schedule";

/**
 * 追剧周表 (/schedule): one tab per weekday, today's first; a tab is a link (?day=N), so the page
 * works without JavaScript and each day has its own address.
 */
export function SchedulePage() {
  const data = useLoaderData<ScheduleData>();
  const dayName = data.day === data.today ? "今日" : weekdayName(data.day);
  return (
    <>
      <PageMeta
        title={`追剧周表 - ${weekdayName(data.day)}`}
        description="追剧周表：连载中的电视剧、综艺与动画每周更新时间一览，免费高清在线观看。"
        path={scheduleHref(data.dayInUrl ? data.day : null)}
      />
      <div className="page-header">
        <h1 className="page-title">追剧周表</h1>
        <p className="page-subtitle">连载剧集每周更新时间（北京时间）</p>
      </div>
      <nav className="ranking-tabs schedule-tabs" aria-label="星期">
        {weekdaysFrom(data.today).map((day) => (
          <Link key={day} to={scheduleHref(day === data.today ? null : day)} className="view-button" aria-current={day === data.day ? "page" : undefined}>
            {day === data.today ? `今天 ${weekdayName(day)}` : weekdayName(day)}
          </Link>
        ))}
      </nav>
      <section aria-labelledby="schedule-day-title">
        <h2 id="schedule-day-title" className="section-title">{`${dayName}更新`}</h2>
        {data.items.length > 0 ? (
          <VideoGrid items={data.items} eagerCount={2} headingLevel={3} />
        ) : (
          <div className="empty-state" role="status">
            <p className="empty-title">{`${weekdayName(data.day)}暂无更新的剧集`}</p>
            <p className="empty-hint">
              去<Link to="/latest">最新更新</Link>看看吧
            </p>
          </div>
        )}
      </section>
    </>
  );
}
