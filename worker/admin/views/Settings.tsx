/** 站点设置: the texts over the wrangler variables; a blank field uses the variable (shown under it). */
import type { SettingsView } from "../settings";
import { Notice } from "./Layout";

const shanghai = new Intl.DateTimeFormat("zh-CN", { timeZone: "Asia/Shanghai", dateStyle: "short", timeStyle: "medium" });

export function SettingsScreen({ view, ok, error, entered }: { view: SettingsView; ok?: string; error?: string; entered?: Record<string, string> }) {
  return (
    <>
      <h1>站点设置</h1>
      {ok ? <Notice kind="ok">{ok}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      <form method="post" action="/admin/settings" className="panel">
        <input type="hidden" name="version" value={view.version} />
        {view.fields.map((f) => {
          const value = entered ? (entered[f.key] ?? "") : f.value;
          const hintId = `${f.key}-hint`;
          return (
            <div className="field" key={f.key}>
              <label htmlFor={f.key}>{f.label}</label>
              {f.multiline ? (
                <textarea id={f.key} name={f.key} rows={3} defaultValue={value} aria-describedby={hintId} />
              ) : (
                <input id={f.key} name={f.key} type="text" defaultValue={value} aria-describedby={hintId} />
              )}
              <p className="muted hint" id={hintId}>
                {f.hint}。留空时使用：{f.fallback || "（无）"}
              </p>
            </div>
          );
        })}
        <button type="submit">保存</button>
      </form>
      <p className="muted">
        保存后一分钟内所有访客可见（缓存的页面会随之更新）。
        {view.updatedAt ? `上次保存：${shanghai.format(view.updatedAt)}（北京时间）。` : "尚未在网页上修改过，当前全部使用部署时的变量。"}
      </p>
    </>
  );
}
