/** The 管理后台's smaller screens: 角色管理, 操作日志, 无权访问 and the errors (概览: Overview.tsx, 用户管理: Users.tsx, 站点设置: Settings.tsx). */
import { ROLE_NAMES } from "../../../shared/admin/roles";
import type { RoleAccount } from "../../../shared/admin/account-roles";
import type { AuditRecord } from "../audit";
import { ConfirmForm, Notice, SelectField } from "./Layout";

export function ForbiddenScreen({ signedInAs }: { signedInAs: string | null }) {
  return (
    <section className="panel narrow" aria-labelledby="forbidden-title">
      <h1 id="forbidden-title">无权访问</h1>
      <p>{signedInAs ? `当前账号 ${signedInAs} 没有管理后台的权限。` : "没有管理后台的权限。"}如需使用，请联系站点管理员为你的账号授予角色。</p>
      <p>
        <a href="/">返回首页</a>
      </p>
    </section>
  );
}

export function MessageScreen({ title, message }: { title: string; message: string }) {
  return (
    <section className="panel narrow" aria-labelledby="message-title">
      <h1 id="message-title">{title}</h1>
      <p>{message}</p>
      <p>
        <a href="/admin">返回管理后台</a>
      </p>
    </section>
  );
}

export interface RolesProps {
  holders: RoleAccount[];
  selfEmail: string;
  ok?: string;
  error?: string;
  email?: string;
}

export function RolesScreen({ holders, selfEmail, ok, error, email }: RolesProps) {
  return (
    <>
      <h1>角色管理</h1>
      {ok ? <Notice kind="ok">{ok}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      <section className="panel" aria-labelledby="grant-title">
        <h2 id="grant-title">授予角色</h2>
        <form method="post" action="/admin/roles/grant" className="row">
          <div className="field">
            <label htmlFor="grant-email">账号邮箱</label>
            <input id="grant-email" name="email" type="email" autoComplete="off" required defaultValue={email} />
          </div>
          <div className="field">
            <label htmlFor="grant-role">角色</label>
            <select id="grant-role" name="role" defaultValue="moderator">
              <option value="moderator">审核员（弹幕、举报、禁言）</option>
              <option value="admin">管理员（全部功能）</option>
            </select>
          </div>
          <div className="field">
            <button type="submit">授予</button>
          </div>
        </form>
        <p className="muted">被授予角色的账号首次进入管理后台时需绑定两步验证。撤销角色会同时清除其两步验证。</p>
      </section>
      <section className="panel" aria-labelledby="holders-title">
        <h2 id="holders-title">拥有角色的账号（{holders.length}）</h2>
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">邮箱</th>
                <th scope="col" className="nowrap">
                  角色
                </th>
                <th scope="col" className="nowrap">
                  操作
                </th>
              </tr>
            </thead>
            <tbody>
              {holders.map((h) => (
                <tr key={h.id}>
                  <td>{h.email}</td>
                  <td className="nowrap">{h.role ? ROLE_NAMES[h.role] : ""}</td>
                  <td className="nowrap">
                    {h.email === selfEmail ? (
                      <span className="muted">当前账号</span>
                    ) : (
                      <ConfirmForm action="/admin/roles/revoke" confirm={`确定撤销 ${h.email} 的角色吗？`} hidden={{ name: "email", value: h.email }}>
                        <button type="submit" className="secondary" aria-label={`撤销 ${h.email} 的角色`}>
                          撤销
                        </button>
                      </ConfirmForm>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}

export const ACTION_NAMES: Record<string, string> = {
  "role.grant": "授予角色",
  "role.revoke": "撤销角色",
  "two_step.enrol": "启用两步验证",
  "two_step.recovery_code": "使用恢复码",
  "user.disable": "停用账号",
  "user.enable": "启用账号",
  "user.sign_out": "强制退出",
  "user.delete": "删除账号",
  "settings.update": "修改站点设置",
  "danmaku.delete": "删除弹幕",
  "danmaku.words": "修改屏蔽词",
  "danmaku.mute": "禁言用户",
  "danmaku.unmute": "解除禁言",
  "report.resolve": "处理举报",
  "report.dismiss": "驳回举报",
  "title.create": "新建视频",
  "title.update": "修改视频",
  "title.episodes": "修改剧集",
  "title.delete": "删除视频",
  "title.cover": "上传封面",
  "title.subtitles": "修改字幕",
  "media.upload": "上传视频",
  "media.publish": "发布上传的视频",
  "media.abandon": "放弃上传",
};

const shanghaiTime = new Intl.DateTimeFormat("zh-CN", { timeZone: "Asia/Shanghai", dateStyle: "short", timeStyle: "medium" });
const shown = (value: unknown) => (value === null || value === undefined ? "—" : JSON.stringify(value));

export interface AuditQuery {
  actor: string;
  action: string;
  target: string;
  from: string;
  to: string;
}

/** The link to the entries after the last shown (older ones), with the same filters. */
function olderHref(query: AuditQuery, beforeId: number): string {
  const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== ""));
  params.set("before", String(beforeId));
  return `/admin/audit?${params.toString()}`;
}

export function AuditScreen({ entries, query, more }: { entries: AuditRecord[]; query: AuditQuery; more: boolean }) {
  return (
    <>
      <h1>操作日志</h1>
      <form method="get" action="/admin/audit" className="row panel">
        <div className="field">
          <label htmlFor="audit-actor">操作人邮箱</label>
          <input id="audit-actor" name="actor" type="email" defaultValue={query.actor} />
        </div>
        <SelectField
          id="audit-action"
          name="action"
          label="操作"
          value={query.action}
          any
          choices={Object.entries(ACTION_NAMES).map(([value, label]) => ({ value, label }))}
        />
        <div className="field">
          <label htmlFor="audit-target">对象</label>
          <input id="audit-target" name="target" type="text" defaultValue={query.target} placeholder="邮箱、站点设置…" />
        </div>
        <div className="field">
          <label htmlFor="audit-from">开始日期</label>
          <input id="audit-from" name="from" type="date" defaultValue={query.from} />
        </div>
        <div className="field">
          <label htmlFor="audit-to">结束日期</label>
          <input id="audit-to" name="to" type="date" defaultValue={query.to} />
        </div>
        <div className="field">
          <button type="submit">筛选</button>
        </div>
      </form>
      <div className="table-wrap panel">
        <table className="stack-table">
          <thead>
            <tr>
              <th scope="col">时间（北京时间）</th>
              <th scope="col">操作人</th>
              <th scope="col">操作</th>
              <th scope="col">对象</th>
              <th scope="col">变更</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td data-label="时间">{shanghaiTime.format(e.at)}</td>
                <td data-label="操作人">{e.actorEmail}</td>
                <td data-label="操作">{ACTION_NAMES[e.action] ?? e.action}</td>
                <td data-label="对象">{e.target}</td>
                <td data-label="变更" className="change">
                  {shown(e.before)} → {shown(e.after)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {entries.length === 0 ? <p className="muted">没有记录。</p> : null}
        {more && entries.length ? (
          <p>
            <a href={olderHref(query, entries[entries.length - 1].id)}>更早的记录</a>
          </p>
        ) : null}
      </div>
      <p className="muted">操作日志只能查看：网站没有修改或删除记录的功能，记录永久保留。</p>
    </>
  );
}
