/**
 * 弹幕管理's screens (both roles): the comments of every room (filters, delete a selection), the
 * blocked words, and the muted users (mute for 1 / 7 / 30 days or for good, lift a mute).
 */
import { beijingMinute, commentRefText, MUTE_CHOICES, MUTE_NAMES } from "../../../shared/danmaku/moderation";
import { untilText, type DanmakuItem, type DanmakuList, type Mute, type WordsView } from "../danmaku";
import type { Poster } from "../posters";
import { ConfirmForm, Notice, SelectField } from "./Layout";
import { ModerationList } from "./ModerationList";

const TABS = [
  { href: "/admin/danmaku", label: "弹幕列表" },
  { href: "/admin/danmaku/words", label: "屏蔽词" },
  { href: "/admin/danmaku/mutes", label: "禁言用户" },
] as const;

function Tabs({ current }: { current: (typeof TABS)[number]["href"] }) {
  return (
    <nav className="tabs" aria-label="弹幕管理">
      {TABS.map((t) => (
        <a key={t.href} href={t.href} aria-current={t.href === current ? "page" : undefined}>
          {t.label}
        </a>
      ))}
    </nav>
  );
}

const who = (user: Poster) => user.email ?? user.id;

/** Seconds into the video as m:ss (or h:mm:ss). */
function videoTime(seconds: number): string {
  const s = Math.floor(seconds);
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return hh > 0 ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

function Row({ item }: { item: DanmakuItem }) {
  const ref = commentRefText({ room: item.room, id: item.commentId });
  return (
    <tr>
      <td>
        <input type="checkbox" name="c" value={ref} aria-label={`选择弹幕：${item.text}`} />
      </td>
      <td className="break">
        {item.text}
        <span className="muted block">{`${beijingMinute(item.created)} · 视频内 ${videoTime(item.time)}`}</span>
      </td>
      <td className="wide-only">
        <a href={`/admin/danmaku?title=${encodeURIComponent(item.videoId)}`}>{item.title}</a>
        {item.episode > 1 ? <span className="muted">{` 第 ${item.episode} 集`}</span> : null}
      </td>
      <td className="break">
        <a href={`/admin/danmaku?user=${encodeURIComponent(item.user.id)}`}>{who(item.user)}</a>
        {item.mutedUntil !== undefined ? <span className="muted block">{`禁言至 ${untilText(item.mutedUntil)}`}</span> : null}
        <a className="block" href={`/admin/danmaku/mutes?user=${encodeURIComponent(item.user.id)}`}>
          禁言…
        </a>
      </td>
    </tr>
  );
}

export interface DanmakuScreenProps {
  list: DanmakuList;
  ok?: string;
  error?: string;
}

export function DanmakuScreen({ list, ok, error }: DanmakuScreenProps) {
  return (
    <>
      <h1>弹幕管理</h1>
      <Tabs current="/admin/danmaku" />
      {ok ? <Notice kind="ok">{ok}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      <ModerationList
        noun="弹幕"
        base="/admin/danmaku"
        prefix="dm"
        query={list.query}
        problem={list.problem}
        count={list.items.length}
        next={list.next}
        confirm="确定删除选中的弹幕吗？删除后所有观众的屏幕上会立即消失，无法恢复。"
      >
        {list.items.map((item) => (
          <Row key={item.seq} item={item} />
        ))}
      </ModerationList>
    </>
  );
}

export interface WordsScreenProps {
  view: WordsView;
  ok?: string;
  error?: string;
  /** What was typed, when a save was refused. */
  entered?: string;
}

export function WordsScreen({ view, ok, error, entered }: WordsScreenProps) {
  return (
    <>
      <h1>弹幕管理</h1>
      <Tabs current="/admin/danmaku/words" />
      {ok ? <Notice kind="ok">{ok}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      <form method="post" action="/admin/danmaku/words" className="panel">
        <h2>屏蔽词</h2>
        <p className="muted" id="words-hint">
          {`每行一个词（也可用逗号分隔）。含有其中任何一个词的弹幕会被拒绝（忽略全角半角、大小写、繁简体、标点和不可见字符），保存后下一条弹幕即生效。留空保存则恢复默认词表。当前：${view.saved ? "已自定义" : "默认词表"}，共 ${view.words.length} 个。`}
        </p>
        <div className="field">
          <label htmlFor="words">屏蔽词</label>
          <textarea id="words" name="words" rows={12} aria-describedby="words-hint" defaultValue={entered ?? view.words.join("\n")} />
        </div>
        <input type="hidden" name="version" value={view.version} />
        <div className="field">
          <button type="submit">保存屏蔽词</button>
        </div>
        <details>
          <summary>默认词表（{view.defaults.length} 个）</summary>
          <p className="break">{view.defaults.join("、")}</p>
        </details>
      </form>
    </>
  );
}

export interface MutesScreenProps {
  mutes: Mute[];
  /** The user the mute form starts with (from a comment's 禁言… link). */
  user?: string;
  ok?: string;
  error?: string;
}

export function MutesScreen({ mutes, user, ok, error }: MutesScreenProps) {
  return (
    <>
      <h1>弹幕管理</h1>
      <Tabs current="/admin/danmaku/mutes" />
      {ok ? <Notice kind="ok">{ok}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      <form method="post" action="/admin/danmaku/mutes" className="row panel" aria-labelledby="mute-title">
        <h2 id="mute-title" className="visually-hidden">
          禁言用户
        </h2>
        <div className="field grow">
          <label htmlFor="mute-user">用户（邮箱或账号 ID）</label>
          <input id="mute-user" name="user" type="text" required defaultValue={user ?? ""} autoComplete="off" />
        </div>
        <SelectField id="mute-duration" name="duration" label="禁言时长" value="1" choices={MUTE_CHOICES.map((c) => ({ value: c, label: MUTE_NAMES[c] }))} />
        <div className="field">
          <button type="submit">禁言</button>
        </div>
      </form>
      <section className="panel" aria-labelledby="mutes-title">
        <h2 id="mutes-title">{`禁言中的用户（${mutes.length}）`}</h2>
        <p className="muted">被禁言的用户发送弹幕时会看到“你已被禁言至…”，到期后自动解除。</p>
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">用户</th>
                <th scope="col" className="nowrap">
                  禁言至
                </th>
                <th scope="col" className="wide-only">
                  操作人
                </th>
                <th scope="col" className="nowrap">
                  <span className="visually-hidden">操作</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {mutes.map((m) => (
                <tr key={m.user.id}>
                  <td className="break">
                    <a href={`/admin/danmaku?user=${encodeURIComponent(m.user.id)}`}>{who(m.user)}</a>
                  </td>
                  <td className="nowrap">{untilText(m.until)}</td>
                  <td className="wide-only break">{`${m.mutedBy}，${beijingMinute(m.mutedAt)}`}</td>
                  <td className="nowrap">
                    <ConfirmForm action="/admin/danmaku/unmute" confirm={`确定解除 ${who(m.user)} 的禁言吗？`} hidden={{ name: "user", value: m.user.id }}>
                      <button type="submit" aria-label={`解除禁言：${who(m.user)}`}>
                        解除禁言
                      </button>
                    </ConfirmForm>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {mutes.length === 0 ? <p className="muted">目前没有被禁言的用户。</p> : null}
      </section>
    </>
  );
}
