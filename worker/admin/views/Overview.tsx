/** 概览: the figures, the plays chart (SVG drawn here, no script) and the most-played titles. */
import { barChart, byteSize, type DayCount, type Windows } from "../../../shared/admin/overview";
import { ROLE_NAMES, type AdminRole } from "../../../shared/admin/roles";
import type { Overview } from "../overview";
import type { NavItem } from "./Layout";

const number = new Intl.NumberFormat("zh-CN");

function Figure({ label, windows, id }: { label: string; windows: Windows; id: string }) {
  return (
    <section className="figure panel" aria-labelledby={id}>
      <h2 id={id}>{label}</h2>
      <dl>
        <div>
          <dt>今日</dt>
          <dd>{number.format(windows.today)}</dd>
        </div>
        <div>
          <dt>近7天</dt>
          <dd>{number.format(windows.week)}</dd>
        </div>
        <div>
          <dt>近30天</dt>
          <dd>{number.format(windows.month)}</dd>
        </div>
      </dl>
    </section>
  );
}

/** Month-day of a UTC day ("3-14"). */
const shortDay = (day: string) => `${Number(day.slice(5, 7))}-${Number(day.slice(8, 10))}`;

function PlaysChart({ series }: { series: DayCount[] }) {
  const chart = barChart(series);
  const first = series[0];
  const last = series.at(-1);
  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${chart.width} ${chart.height}`}
        role="img"
        aria-labelledby="plays-chart-title"
        preserveAspectRatio="none"
        xmlns="http://www.w3.org/2000/svg"
      >
        <title id="plays-chart-title">{`近30天每日播放量，最高 ${number.format(chart.max)} 次`}</title>
        <line x1="0" y1={chart.baseline} x2={chart.width} y2={chart.baseline} className="chart-axis" />
        {chart.bars.map((bar) => (
          <rect key={bar.day} x={bar.x} y={bar.y} width={bar.width} height={bar.height} className="chart-bar">
            <title>{`${bar.day}：${number.format(bar.count)} 次`}</title>
          </rect>
        ))}
      </svg>
      <figcaption className="chart-caption muted">
        <span>{first ? shortDay(first.day) : ""}</span>
        <span>每日播放量（UTC 日）</span>
        <span>{last ? shortDay(last.day) : ""}</span>
      </figcaption>
    </figure>
  );
}

export function OverviewScreen({ overview, role, screens }: { overview: Overview; role: AdminRole; screens: NavItem[] }) {
  const { media } = overview;
  const others = screens.filter((s) => s.href !== "/admin");
  const canSeeReports = screens.some((s) => s.href === "/admin/reports");
  const failures = overview.playbackFailures;
  return (
    <>
      <h1>概览</h1>
      <p className="muted">
        你的角色：{ROLE_NAMES[role]}。数据按 UTC 日统计，截至 {overview.today}。
      </p>
      <div className="figures">
        <Figure id="fig-plays" label="播放量" windows={overview.plays.windows} />
        <Figure id="fig-danmaku" label="弹幕发送" windows={overview.danmaku} />
        <Figure id="fig-line-failures" label="线路故障" windows={overview.lineFailures.windows} />
        {overview.newAccounts ? <Figure id="fig-accounts" label="新注册账号" windows={overview.newAccounts} /> : null}
        <section className="figure panel" aria-labelledby="fig-reports">
          <h2 id="fig-reports">待处理举报</h2>
          <dl>
            <div>
              <dt>合计</dt>
              <dd>{number.format(overview.reports.open)}</dd>
            </div>
            <div>
              <dt>弹幕</dt>
              <dd>{number.format(overview.reports.openByKind.danmaku)}</dd>
            </div>
            <div>
              <dt>播放问题</dt>
              <dd>{number.format(overview.reports.openByKind.playback)}</dd>
            </div>
          </dl>
          {canSeeReports ? (
            <p>
              <a href="/admin/reports">处理举报</a>
            </p>
          ) : null}
        </section>
        <Figure id="fig-failures" label="播放失败" windows={overview.playbackFailures.total} />
        <section className="figure panel" aria-labelledby="fig-media">
          <h2 id="fig-media">R2 媒体存储</h2>
          {media ? (
            <dl>
              <div>
                <dt>文件数</dt>
                <dd>
                  {media.partial ? "至少 " : ""}
                  {number.format(media.objects)}
                </dd>
              </div>
              <div>
                <dt>总大小</dt>
                <dd>{byteSize(media.bytes)}</dd>
              </div>
            </dl>
          ) : (
            <p className="muted">暂时无法读取 R2。</p>
          )}
        </section>
      </div>
      <section className="panel" aria-labelledby="chart-title">
        <h2 id="chart-title">近30天播放量</h2>
        <PlaysChart series={overview.plays.series} />
      </section>
      <section className="panel" aria-labelledby="top-title">
        <h2 id="top-title">近30天播放最多的作品</h2>
        {overview.topTitles.length ? (
          <ol className="top-titles">
            {overview.topTitles.map((t) => (
              <li key={t.id}>
                <a href={`/video/${encodeURIComponent(t.id)}`}>{t.title}</a>
                <span className="muted">{number.format(t.plays)} 次</span>
              </li>
            ))}
          </ol>
        ) : (
          <p className="muted">近30天还没有播放记录。</p>
        )}
      </section>
      <section className="panel" aria-labelledby="line-failures-title">
        <h2 id="line-failures-title">近30天故障最多的线路</h2>
        {overview.lineFailures.top.length ? (
          <ol className="top-titles line-failures">
            {overview.lineFailures.top.map((f) => (
              <li key={`${f.id}-${f.episode}-${f.line}`}>
                <a href={`/admin/titles/${encodeURIComponent(f.id)}`}>{f.title}</a>
                <span>
                  {f.episode > 1 ? `第${f.episode}集 · ` : ""}
                  {f.line}
                </span>
                <span className="muted">{number.format(f.failures)} 次</span>
              </li>
            ))}
          </ol>
        ) : (
          <p className="muted">近30天没有线路故障：播放器切换线路时会在这里计数。</p>
        )}
      </section>
      <p className="muted">
        {overview.newAccounts ? "" : "账号由 Supabase 项目管理，新注册数请在其控制台查看。"}
        弹幕从本版本起计数（示例弹幕不计）；线路故障是播放器自动切换线路的次数（每次播放每条线路最多一次）。播放失败 = 播放器自动上报（每位观众每集每天计一次）+
        观众报错：今日 {number.format(failures.beacons.today)} + {number.format(failures.reports.today)}，近7天 {number.format(failures.beacons.week)} +{" "}
        {number.format(failures.reports.week)}。
      </p>
      {others.length ? (
        <ul className="cards" aria-label="功能">
          {others.map((s) => (
            <li key={s.href}>
              <a href={s.href}>
                <strong>{s.label}</strong>
                {SCREEN_HINTS[s.href] ?? ""}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

const SCREEN_HINTS: Record<string, string> = {
  "/admin/reports": "弹幕举报与播放报错，处理或驳回",
  "/admin/titles": "新建、编辑、发布和下架视频",
  "/admin/users": "查找账号，停用、启用、强制退出或删除",
  "/admin/settings": "网站名称、备案信息、首页文案与热门搜索",
  "/admin/roles": "授予或撤销管理员、审核员角色",
  "/admin/audit": "每一次后台操作的记录",
};
