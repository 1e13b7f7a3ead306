/** 举报: the queue grouped by title (filters, counts, a 弹幕's text and a link to the title), resolve or dismiss one report or a title's open ones. */
import { KIND_NAMES, REPORT_KINDS, REPORT_STATUSES, reasonName, STATUS_NAMES } from "../../../shared/reports/model";
import { shanghaiTime } from "../../../shared/catalogue/publication";
import { formatTime } from "../../../shared/format";
import type { QueuedReport, ReportGroup, ReportQuery, ReportQueue } from "../reports";
import { Notice, SelectField } from "./Layout";

const when = (ms: number) => shanghaiTime(ms).slice(0, 16).replace("T", " ");

export function reportsHref(query: ReportQuery, page = query.page): string {
  const params = new URLSearchParams();
  if (query.kind) params.set("kind", query.kind);
  if (query.status !== "open") params.set("status", query.status);
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return `/admin/reports${search ? `?${search}` : ""}`;
}

const videoHref = (titleId: string, episode: number) => `/video/${encodeURIComponent(titleId)}${episode > 1 ? `/${episode}` : ""}`;

function What({ report, titleId }: { report: QueuedReport; titleId: string }) {
  const place = `第${report.episode}集`;
  return (
    <div>
      {report.kind === "comment" ? (
        <>
          <q className="reported-text">{report.targetText ?? "（评论已不存在）"}</q>{" "}
          <a href={`/admin/comments?title=${encodeURIComponent(titleId)}`}>评论管理</a> <a href={`${videoHref(titleId, 1)}#comments`}>查看视频</a>
        </>
      ) : report.kind === "danmaku" ? (
        <>
          <q className="reported-text">{report.targetText ?? "（弹幕已不存在）"}</q>{" "}
          <a href={videoHref(titleId, report.episode)}>
            {place}
            {report.targetTime !== null ? ` ${formatTime(report.targetTime)}` : ""}
          </a>
        </>
      ) : (
        <a href={videoHref(titleId, report.episode)}>{place}</a>
      )}
      {report.note ? <div className="hint break">补充：{report.note}</div> : null}
    </div>
  );
}

function ReportRow({ report, titleId, back }: { report: QueuedReport; titleId: string; back: string }) {
  return (
    <tr>
      <td data-label="时间" className="nowrap">
        {when(report.createdAt)}
      </td>
      <td data-label="类型" className="nowrap">
        {KIND_NAMES[report.kind]}
      </td>
      <td data-label="原因" className="nowrap">
        {reasonName(report.kind, report.reason)}
      </td>
      <td data-label="内容" className="break">
        <What report={report} titleId={titleId} />
      </td>
      <td data-label="操作">
        {report.status === "open" ? (
          <form method="post" action={`/admin/reports/${report.id}`} className="actions">
            <input type="hidden" name="back" value={back} />
            <button type="submit" name="action" value="resolve" aria-label={`处理举报 #${report.id}`}>
              处理
            </button>
            <button type="submit" name="action" value="dismiss" className="secondary" aria-label={`驳回举报 #${report.id}`}>
              驳回
            </button>
          </form>
        ) : null}
        {report.status === "open" && report.kind === "comment" && report.targetId ? (
          <form method="post" action="/admin/comments/delete" className="actions" data-confirm="确定删除这条评论吗？">
            <input type="hidden" name="back" value={back} />
            <input type="hidden" name="c" value={report.targetId} />
            <button type="submit" className="danger" aria-label={`删除举报 #${report.id} 的评论`}>
              删除评论
            </button>
          </form>
        ) : null}
        {report.status === "open" ? null : (
          <span className="muted">
            {STATUS_NAMES[report.status]}
            {report.resolvedBy ? `（${report.resolvedBy}${report.resolvedAt ? `，${when(report.resolvedAt)}` : ""}）` : ""}
          </span>
        )}
      </td>
    </tr>
  );
}

function Group({ group, query, back }: { group: ReportGroup; query: ReportQuery; back: string }) {
  const id = `group-${group.titleId}`;
  const kinds = REPORT_KINDS.filter((k) => (group.byKind[k] ?? 0) > 0).map((k) => `${KIND_NAMES[k]} ${group.byKind[k]}`);
  const scope = query.kind ? KIND_NAMES[query.kind] : "";
  return (
    <section className="panel report-group" aria-labelledby={id}>
      <div className="heading-row">
        <h2 id={id}>
          <a href={videoHref(group.titleId, 1)}>{group.title}</a> <span className="muted">{`${group.count} 条（${kinds.join("，")}）`}</span>
        </h2>
        {query.status === "open" ? (
          <form method="post" action="/admin/reports/group" className="actions">
            <input type="hidden" name="title" value={group.titleId} />
            <input type="hidden" name="kind" value={query.kind} />
            <input type="hidden" name="back" value={back} />
            <button type="submit" name="action" value="resolve" aria-label={`全部处理：${group.title}的${scope}举报`}>
              全部处理
            </button>
            <button type="submit" name="action" value="dismiss" className="secondary" aria-label={`全部驳回：${group.title}的${scope}举报`}>
              全部驳回
            </button>
          </form>
        ) : null}
      </div>
      <div className="table-wrap">
        <table className="stack-table">
          <thead>
            <tr>
              <th scope="col">时间（北京时间）</th>
              <th scope="col">类型</th>
              <th scope="col">原因</th>
              <th scope="col">内容</th>
              <th scope="col">操作</th>
            </tr>
          </thead>
          <tbody>
            {group.reports.map((r) => (
              <ReportRow key={r.id} report={r} titleId={group.titleId} back={back} />
            ))}
          </tbody>
        </table>
      </div>
      {group.count > group.reports.length ? <p className="muted">{`另有 ${group.count - group.reports.length} 条较早的举报未显示。`}</p> : null}
    </section>
  );
}

export function ReportsScreen({ queue, ok, error }: { queue: ReportQueue; ok?: string; error?: string }) {
  const { query } = queue;
  const back = reportsHref(query);
  return (
    <>
      <h1>举报</h1>
      {ok ? <Notice kind="ok">{ok}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      <form method="get" action="/admin/reports" className="row panel" aria-label="筛选举报">
        <SelectField
          id="reports-kind"
          name="kind"
          label="类型"
          value={query.kind}
          any
          choices={REPORT_KINDS.map((k) => ({ value: k, label: KIND_NAMES[k] }))}
        />
        <SelectField
          id="reports-status"
          name="status"
          label="状态"
          value={query.status}
          choices={REPORT_STATUSES.map((s) => ({ value: s, label: STATUS_NAMES[s] }))}
        />
        <div className="field">
          <button type="submit">筛选</button>
        </div>
      </form>
      <p className="muted">
        {queue.reports
          ? `${STATUS_NAMES[query.status]}：${queue.titles} 个视频，${queue.reports} 条举报。举报最多的视频在前。`
          : `没有${STATUS_NAMES[query.status]}的${query.kind ? KIND_NAMES[query.kind] : ""}举报。`}
      </p>
      {queue.groups.map((g) => (
        <Group key={g.titleId} group={g} query={query} back={back} />
      ))}
      {queue.pages > 1 ? (
        <nav className="pager" aria-label="分页">
          {query.page > 1 ? <a href={reportsHref(query, query.page - 1)}>上一页</a> : <span />}
          <span className="muted">
            第 {query.page} / {queue.pages} 页
          </span>
          {query.page < queue.pages ? <a href={reportsHref(query, query.page + 1)}>下一页</a> : <span />}
        </nav>
      ) : null}
    </>
  );
}
