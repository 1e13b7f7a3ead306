/** 视频管理's screens: the list (search, filters, sort, pages, bulk actions), the edit form, and the delete confirmation. */
import { episodesFromLines, FIELD_LABELS, type FormState } from "../../../shared/admin/title-form";
import { SHOWN_STATES, shanghaiTime, STATE_NAMES } from "../../../shared/catalogue/publication";
import { BULK_NAMES, SORT_NAMES, TITLE_SORTS, type TitleList, type TitleListQuery } from "../titles";
import { ConfirmForm, Notice, SelectField } from "./Layout";
import { SUBTITLE_LANGUAGES, SUBTITLE_NAMES, type SubtitleLanguage } from "../../../shared/stream/contract";
import { MarkersSection, type MarkersSectionProps } from "./Markers";

const when = (ms: number) => shanghaiTime(ms).slice(0, 16).replace("T", " ");

function listHref(query: TitleListQuery, page: number): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.state) params.set("state", query.state);
  if (query.category) params.set("category", query.category);
  params.set("sort", query.sort);
  if (page > 1) params.set("page", String(page));
  return `/admin/titles?${params.toString()}`;
}

export interface TitlesScreenProps {
  list: TitleList;
  ok?: string;
  error?: string;
}

export function TitlesScreen({ list, ok, error }: TitlesScreenProps) {
  const { query } = list;
  return (
    <>
      <div className="heading-row">
        <h1>视频管理</h1>
        <a className="button" href="/admin/titles/new">
          新建视频
        </a>
      </div>
      {ok ? <Notice kind="ok">{ok}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      <form method="get" action="/admin/titles" className="row panel" role="search" aria-label="查找视频">
        <div className="field grow">
          <label htmlFor="titles-q">标题、拼音或首字母</label>
          <input id="titles-q" name="q" type="search" defaultValue={query.q} autoComplete="off" />
        </div>
        <SelectField
          id="titles-state"
          name="state"
          label="状态"
          value={query.state}
          any
          choices={SHOWN_STATES.map((s) => ({ value: s, label: STATE_NAMES[s] }))}
        />
        <SelectField
          id="titles-category"
          name="category"
          label="分类"
          value={query.category}
          any
          choices={list.categories.map((c) => ({ value: c.name, label: `${c.name}（${c.titles}）` }))}
        />
        <SelectField id="titles-sort" name="sort" label="排序" value={query.sort} choices={TITLE_SORTS.map((s) => ({ value: s, label: SORT_NAMES[s] }))} />
        <div className="field">
          <button type="submit">查找</button>
        </div>
      </form>
      <form method="post" action="/admin/titles/bulk" className="panel" aria-labelledby="titles-found">
        <h2 id="titles-found">{`共 ${list.total} 个视频${list.pages > 1 ? `，第 ${query.page}/${list.pages} 页` : ""}`}</h2>
        <div className="row bulk">
          <SelectField
            id="bulk-action"
            name="action"
            label="对选中的视频"
            value="publish"
            choices={Object.entries(BULK_NAMES).map(([value, label]) => ({ value, label }))}
          />
          <div className="field">
            <label htmlFor="bulk-category">新分类（修改分类时）</label>
            <input id="bulk-category" name="category" list="bulk-categories" autoComplete="off" />
            <datalist id="bulk-categories">
              {list.categories.map((c) => (
                <option key={c.name} value={c.name} />
              ))}
            </datalist>
          </div>
          <input type="hidden" name="back" value={listHref(query, query.page)} />
          <div className="field">
            <button type="submit">执行</button>
          </div>
        </div>
        <div className="table-wrap">
          <table className="titles">
            <thead>
              <tr>
                <th scope="col" className="nowrap">
                  <span className="visually-hidden">选择</span>
                </th>
                <th scope="col">标题</th>
                <th scope="col" className="nowrap">
                  状态
                </th>
                <th scope="col" className="wide-only">
                  分类
                </th>
                <th scope="col" className="nowrap wide-only">
                  最近修改
                </th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((t) => (
                <tr key={t.id}>
                  <td>
                    <input type="checkbox" name="id" value={t.id} aria-label={`选择 ${t.title}`} />
                  </td>
                  <td>
                    <a href={`/admin/titles/${t.id}`}>{t.title}</a>
                    <span className="muted id">{` ${t.id} · ${t.year}`}</span>
                  </td>
                  <td className="nowrap">
                    <span className={`state state-${t.state}`}>{STATE_NAMES[t.state]}</span>
                    {t.state === "scheduled" ? <span className="muted block">{when(t.publishAt)}</span> : null}
                  </td>
                  <td className="wide-only">{t.categories.join("、")}</td>
                  <td className="nowrap wide-only">{when(t.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {list.items.length === 0 ? <p className="muted">没有符合条件的视频。</p> : null}
      </form>
      {list.pages > 1 ? (
        <nav className="pager" aria-label="分页">
          {query.page > 1 ? <a href={listHref(query, query.page - 1)}>上一页</a> : null}
          <span>{`${query.page} / ${list.pages}`}</span>
          {query.page < list.pages ? <a href={listHref(query, query.page + 1)}>下一页</a> : null}
        </nav>
      ) : null}
    </>
  );
}

export interface TitleEditProps {
  /** null: a new title. */
  id: string | null;
  values: Record<string, string>;
  version: number | null;
  problems?: string[];
  error?: string;
  ok?: string;
  /** Shown under the heading: who edited last, when. */
  meta?: string;
  cover?: string;
  /** 字幕 of each episode (one "正片" for a single title). */
  subtitles?: Array<{ episode: number; name: string; languages: SubtitleLanguage[] }>;
  /** 片头 / 片尾 (worker/admin/views/Markers.tsx). */
  markers?: MarkersSectionProps;
}

function Text({
  name,
  values,
  hint,
  type = "text",
  required = false,
}: {
  name: string;
  values: Record<string, string>;
  hint?: string;
  type?: string;
  required?: boolean;
}) {
  const id = `field-${name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{FIELD_LABELS[name]}</label>
      <input id={id} name={name} type={type} defaultValue={values[name] ?? ""} required={required} aria-describedby={hint ? `${id}-hint` : undefined} />
      {hint ? (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      ) : null}
    </div>
  );
}

function Area({ name, values, hint, rows = 3 }: { name: string; values: Record<string, string>; hint?: string; rows?: number }) {
  const id = `field-${name}`;
  return (
    <div className="field wide">
      <label htmlFor={id}>{FIELD_LABELS[name]}</label>
      <textarea id={id} name={name} rows={rows} defaultValue={values[name] ?? ""} aria-describedby={hint ? `${id}-hint` : undefined} />
      {hint ? (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      ) : null}
    </div>
  );
}

/**
 * 剧集, one row an episode (视频文件, 时长, 名称) and a blank row to add one. On an existing title
 * each row has 上移, 下移 and 删除: submit buttons of the edit form (no JavaScript needed) that save
 * the form with that change (shared/admin/episode-rows.ts). Episode 1 is the title's own file.
 */
function EpisodeRows({ values, editing }: { values: Record<string, string>; editing: boolean }) {
  const rows = episodesFromLines(values.episodes ?? "") ?? [];
  const cell = (name: string, n: number | null, label: string, value: string, hint: string) => (
    <input name={name} defaultValue={value} aria-label={n === null ? `新的一集：${label}` : `第${n}集：${label}`} placeholder={hint} />
  );
  return (
    <fieldset className="episodes" id="episodes">
      <legend>{`${FIELD_LABELS.episodes}（${rows.length > 0 ? `${rows.length}集` : "电影：不分集"}）`}</legend>
      <p className="muted" id="episodes-hint">
        每行一集：视频文件、时长、名称（可省略，例如
        第1期：初次见面）。第1集必须是上面的视频文件，不能删除或移动。在最后一行填写即可添加一集（电影添加后，视频本身成为第1集）；清空一行的所有内容即删除这一集。
      </p>
      <ol className="episode-rows" aria-describedby="episodes-hint">
        {rows.map((row, i) => {
          const n = i + 1;
          return (
            <li key={`${n}-${row.videoFile}`} className="episode-row">
              <span className="episode-number">{`第${n}集`}</span>
              {cell("episodeFile", n, "视频文件", row.videoFile, "12.mp4")}
              {cell("episodeDuration", n, "时长", row.duration, "45:00")}
              {cell("episodeName", n, "名称", row.name ?? "", "名称（可省略）")}
              {editing ? (
                <span className="episode-actions">
                  <button type="submit" name="episodeOp" value={`up:${n}`} className="secondary" disabled={n <= 2} aria-label={`第${n}集上移`}>
                    上移
                  </button>
                  <button
                    type="submit"
                    name="episodeOp"
                    value={`down:${n}`}
                    className="secondary"
                    disabled={n === 1 || n === rows.length}
                    aria-label={`第${n}集下移`}
                  >
                    下移
                  </button>
                  <button type="submit" name="episodeOp" value={`remove:${n}`} className="secondary" disabled={n === 1} aria-label={`删除第${n}集`}>
                    删除
                  </button>
                </span>
              ) : null}
            </li>
          );
        })}
        <li className="episode-row new">
          <span className="episode-number">{rows.length > 0 ? `第${rows.length + 1}集` : "新的一集"}</span>
          {cell("newEpisodeFile", null, "视频文件", "", "12.mp4")}
          {cell("newEpisodeDuration", null, "时长", "", "45:00")}
          {cell("newEpisodeName", null, "名称", "", "名称（可省略）")}
          {editing ? (
            <span className="episode-actions">
              <button type="submit" name="episodeOp" value="add">
                添加这一集
              </button>
            </span>
          ) : null}
        </li>
      </ol>
    </fieldset>
  );
}

const STATE_CHOICES: ReadonlyArray<{ value: FormState; label: string }> = [
  { value: "draft", label: "草稿（不公开）" },
  { value: "published", label: "已发布（立即公开）" },
  { value: "scheduled", label: "定时发布（北京时间）" },
  { value: "unpublished", label: "已下架" },
];

/** 连载状态: empty follows the status and the planned episodes. */
const SERIAL_CHOICES = [
  { value: "", label: "按更新状态判断" },
  { value: "ongoing", label: "连载中" },
  { value: "ended", label: "已完结" },
] as const;

/** 字幕: the languages each episode has (each removable), and the upload form (SRT, ASS or WebVTT). */
function SubtitlesSection({ id, subtitles }: { id: string; subtitles: NonNullable<TitleEditProps["subtitles"]> }) {
  const series = subtitles.length > 1;
  return (
    <section className="panel" aria-labelledby="subtitles-title">
      <h2 id="subtitles-title">字幕</h2>
      <ul className="subtitle-list">
        {subtitles.map((s) => (
          <li key={s.episode}>
            <span>{s.name}：</span>
            {s.languages.length === 0 ? <span className="muted">无字幕</span> : null}
            {s.languages.map((language) => (
              <form key={language} method="post" action={`/admin/titles/${id}/subtitles/remove`} className="inline">
                <input type="hidden" name="episode" value={s.episode} />
                <input type="hidden" name="language" value={language} />
                <button type="submit" className="secondary" title={`移除${s.name}的${SUBTITLE_NAMES[language]}字幕`}>
                  {`移除${SUBTITLE_NAMES[language]}`}
                </button>
              </form>
            ))}
          </li>
        ))}
      </ul>
      <form method="post" action={`/admin/titles/${id}/subtitles`} encType="multipart/form-data" className="row">
        {series ? (
          <SelectField
            id="subtitle-episode"
            name="episode"
            label="剧集"
            value="1"
            choices={subtitles.map((s) => ({ value: String(s.episode), label: s.name }))}
          />
        ) : null}
        <SelectField
          id="subtitle-language"
          name="language"
          label="语言"
          value="zh-CN"
          choices={SUBTITLE_LANGUAGES.map((l) => ({ value: l, label: SUBTITLE_NAMES[l] }))}
        />
        <div className="field grow">
          <label htmlFor="subtitle-file">字幕文件（SRT、ASS 或 WebVTT，UTF-8；转换为 WebVTT，ASS 的样式不保留）</label>
          <input id="subtitle-file" name="file" type="file" accept=".srt,.ass,.ssa,.vtt,text/vtt" required />
        </div>
        <div className="field">
          <button type="submit">上传字幕</button>
        </div>
      </form>
      <p className="muted">同一语言再次上传会替换原有字幕；观众在播放器的「字幕」菜单中按名称选择。</p>
    </section>
  );
}

export function TitleEditScreen({ id, values, version, problems, error, ok, meta, cover, subtitles, markers }: TitleEditProps) {
  const action = id ? `/admin/titles/${id}` : "/admin/titles/new";
  const episodeCount = (values.episodes ?? "").split("\n").filter((line) => line.trim()).length;
  return (
    <>
      <p>
        <a href="/admin/titles">← 视频管理</a>
      </p>
      <h1>{id ? `编辑：${values.title || id}` : "新建视频"}</h1>
      {meta ? <p className="muted">{meta}</p> : null}
      {ok ? <Notice kind="ok">{ok}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      {problems && problems.length > 0 ? (
        <ul className="problems" aria-label="需要修改的地方">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      <form method="post" action={action} className="panel edit-form">
        {/* Enter in a field saves (the form's first submit button), not a 剧集 row's 上移. */}
        <div hidden>
          <button type="submit" tabIndex={-1}>
            {id ? "保存" : "创建"}
          </button>
        </div>
        {version !== null ? <input type="hidden" name="version" value={version} /> : null}
        <fieldset>
          <legend>发布状态</legend>
          <div className="choices">
            {STATE_CHOICES.map((c) => (
              <label key={c.value} className="choice">
                <input type="radio" name="state" value={c.value} defaultChecked={(values.state || "draft") === c.value} />
                {c.label}
              </label>
            ))}
          </div>
          <Text name="publishAt" values={values} type="datetime-local" hint="定时发布时填写；到时间后自动公开，无需部署。" />
        </fieldset>
        <fieldset>
          <legend>基本信息</legend>
          <div className="grid">
            {id ? (
              <div className="field">
                <span className="label">编号</span>
                <span className="readonly">{id}</span>
                <input type="hidden" name="id" value={id} />
              </div>
            ) : (
              <Text name="id" values={values} hint="video_ 加 3–7 位数字，例如 video_051" required />
            )}
            <Text name="title" values={values} required />
            <Text name="year" values={values} type="number" required />
            <Text name="rating" values={values} hint="0–10，最多一位小数" required />
            <Text name="duration" values={values} hint="02:08:40 或 45:00" required />
            <Text name="area" values={values} />
            <Text name="language" values={values} />
            <Text name="status" values={values} hint="卡片上显示，例如 更新至12集" />
          </div>
          <Area name="description" values={values} rows={4} />
          <Text name="category" values={values} hint="用逗号分隔，例如 电影，剧情" required />
          <Text name="tags" values={values} hint="用逗号分隔" />
          <Text name="directors" values={values} hint="用逗号分隔" />
          <Text name="actors" values={values} hint="用逗号分隔" />
          <Text name="aliases" values={values} hint="用逗号分隔" />
        </fieldset>
        <fieldset>
          <legend>媒体</legend>
          <div className="grid">
            <Text name="videoFile" values={values} hint="例如 12.mp4" required />
            <Text name="coverImage" values={values} hint="与视频同号，例如 12.webp" required />
            <Text name="totalEpisodes" values={values} type="number" hint="计划总集数（多于已有集数时）" />
            <SelectField id="field-serial" name="serial" label="连载状态" choices={SERIAL_CHOICES} value={values.serial ?? ""} />
            <Text name="updateDays" values={values} hint="连载剧集的更新日，例如 五 或 一，四（追剧周表）" />
          </div>
          <EpisodeRows values={values} editing={id !== null} />
          <Area
            name="lines"
            values={values}
            rows={3}
            hint="本站线路之外的线路，每行一条：名称 | 地址（名称可省略，默认 线路2、线路3…）。镜像填主机或路径（如 https://cdn.example.cn 或 /mirror），它提供同样的 /stream/ 目录；外部线路填 .m3u8 或 .mp4 的完整网址（剧集的外部线路写在目录文件的 episodes.N.lines）。播放器出错或卡顿时自动切换到下一条。"
          />
        </fieldset>
        <div className="row">
          <button type="submit">{id ? "保存" : "创建"}</button>
        </div>
      </form>
      {id ? (
        <section className="panel" aria-labelledby="cover-title">
          <h2 id="cover-title">封面</h2>
          {cover ? <img className="cover-preview" src={cover} alt={`${values.title} 的封面`} width={320} height={180} /> : null}
          <div className="field" data-cover-upload={id}>
            <label htmlFor="cover-file">上传新封面（JPG、PNG 或 WebP；在浏览器中裁切为 16:9、缩放为 640×360 并转换为 WebP）</label>
            <input id="cover-file" type="file" accept="image/*" />
            <p className="muted" role="status" data-cover-status="">
              需要启用 JavaScript。
            </p>
          </div>
        </section>
      ) : null}
      {id && subtitles ? <SubtitlesSection id={id} subtitles={subtitles} /> : null}
      {markers ? <MarkersSection {...markers} /> : null}
      {id ? (
        <section className="panel" aria-labelledby="video-upload-title">
          <h2 id="video-upload-title">上传视频</h2>
          <div className="field video-upload" data-video-upload={id}>
            <p className="muted">
              在浏览器中打包为各档清晰度（270p 起，不放大）、2 秒分段、进度预览图与兼容 MP4，边打包边上传；全部上传并校验后才发布。关闭页面后可 继续上传。
            </p>
            <label htmlFor="video-upload-target">上传到</label>
            <select id="video-upload-target" data-episode="">
              <option value="">{episodeCount > 0 ? "第1集（视频本身）" : "视频本身"}</option>
              {Array.from({ length: Math.max(0, episodeCount - 1) }, (_, i) => (
                <option key={i} value={String(i + 2)}>{`第${i + 2}集`}</option>
              ))}
              {episodeCount > 0 ? <option value={String(episodeCount + 1)}>{`新的一集（第${episodeCount + 1}集）`}</option> : null}
            </select>
            <label htmlFor="video-upload-file">选择要上传的影片（MP4、MOV、MKV、WebM，可拖入此处）</label>
            <input id="video-upload-file" type="file" accept="video/*,.mkv,.mov" />
            <div data-upload-resume="" />
            <p className="muted" role="status" data-upload-status="">
              需要启用 JavaScript。
            </p>
            <div data-upload-details="" />
          </div>
        </section>
      ) : null}
      {id ? (
        <ConfirmForm
          action={`/admin/titles/${id}/delete`}
          className="panel danger"
          confirm={`确定删除「${values.title}」吗？此操作不能撤销。`}
          hidden={{ name: "confirmed", value: "" }}
        >
          <h2>删除</h2>
          <p className="muted">删除后所有页面、搜索和应用中都不再有这个视频；导入旧的目录文件也不会恢复它。</p>
          <button type="submit" className="secondary">
            删除这个视频
          </button>
        </ConfirmForm>
      ) : null}
    </>
  );
}

export function ConfirmDeleteScreen({ titles, back }: { titles: Array<{ id: string; title: string }>; back: string }) {
  return (
    <section className="panel narrow" aria-labelledby="confirm-title">
      <h1 id="confirm-title">确认删除</h1>
      <p>{`将删除以下 ${titles.length} 个视频，此操作不能撤销：`}</p>
      <ul>
        {titles.map((t) => (
          <li key={t.id}>{`${t.title}（${t.id}）`}</li>
        ))}
      </ul>
      <form method="post" action="/admin/titles/bulk">
        <input type="hidden" name="action" value="delete" />
        <input type="hidden" name="confirmed" value="yes" />
        <input type="hidden" name="back" value={back} />
        {titles.map((t) => (
          <input key={t.id} type="hidden" name="id" value={t.id} />
        ))}
        <div className="row">
          <button type="submit">确认删除</button>
          <a className="button secondary" href={back}>
            取消
          </a>
        </div>
      </form>
    </section>
  );
}
