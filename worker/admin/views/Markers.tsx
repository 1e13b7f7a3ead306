/** 视频管理's 片头 / 片尾: the title's markers and each episode's own, in a form of their own (worker/admin/markers.ts). */
import { MARKER_KINDS, MARKER_NAMES, markerField, scopeName } from "../../../shared/admin/marker-form";

export interface MarkersSectionProps {
  id: string;
  version: number;
  /** Episodes of a series (0 for a film). */
  episodes: number;
  values: Record<string, string>;
}

const EDGES = [
  ["start", "开始"],
  ["end", "结束"],
] as const;

export function MarkersSection({ id, version, episodes, values }: MarkersSectionProps) {
  const series = episodes > 0;
  const scopes = [0, ...Array.from({ length: episodes }, (_, i) => i + 1)];
  return (
    <section className="panel" aria-labelledby="markers-title">
      <h2 id="markers-title">片头 / 片尾</h2>
      <p className="muted" id="markers-hint">
        {series
          ? "时间从每集开头算起，填秒数或 分:秒（如 1:30）。「全部剧集」适用于每一集；某一集不同时在它的行里填写，留空则沿用「全部剧集」。开始和结束都留空表示没有。"
          : "时间从视频开头算起，填秒数或 分:秒（如 1:30）。开始和结束都留空表示没有。"}
        播放器在片头显示「跳过片头」，开启自动连播时在片尾倒数后播放下一集。
      </p>
      <form method="post" action={`/admin/titles/${id}/markers`} aria-describedby="markers-hint">
        <input type="hidden" name="version" value={version} />
        <div className="table-wrap">
          <table className="markers">
            <thead>
              <tr>
                <th scope="col">{series ? "剧集" : "视频"}</th>
                {MARKER_KINDS.flatMap((kind) =>
                  EDGES.map(([edge, edgeName]) => <th scope="col" key={`${kind}-${edge}`} className="nowrap">{`${MARKER_NAMES[kind]}${edgeName}`}</th>),
                )}
              </tr>
            </thead>
            <tbody>
              {scopes.map((scope) => (
                <tr key={scope}>
                  <th scope="row" className="nowrap">
                    {scopeName(scope, series)}
                  </th>
                  {MARKER_KINDS.flatMap((kind) =>
                    EDGES.map(([edge, edgeName]) => {
                      const name = markerField(scope, kind, edge);
                      return (
                        <td key={name}>
                          <input
                            name={name}
                            defaultValue={values[name] ?? ""}
                            inputMode="decimal"
                            autoComplete="off"
                            placeholder={series && scope > 0 ? "沿用" : "无"}
                            aria-label={`${scopeName(scope, series)} ${MARKER_NAMES[kind]}${edgeName}`}
                          />
                        </td>
                      );
                    }),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="row">
          <button type="submit">保存片头 / 片尾</button>
        </div>
      </form>
    </section>
  );
}
