/**
 * 弹幕 on the detail page (loaded after hydration by DanmakuMount): the layer over the video
 * (DanmakuLayer, inside the player box, so it follows fullscreen) and the bar under the player
 * (DanmakuControls, portalled into #danmaku-bar): 弹幕 on/off, the input with colour and mode,
 * the settings and a personal blocked-words list, remembered in localStorage.
 */
import { useEffect, useRef, useState, useSyncExternalStore, type RefObject } from "react";
import { createPortal } from "react-dom";
import {
  DANMAKU_COLORS,
  DANMAKU_MODES,
  MAX_TEXT_CHARS,
  parseRoomKey,
  roundTime,
  type DanmakuColor,
  type DanmakuComment,
  type DanmakuMode,
} from "../../danmaku/model";
import type { DanmakuReportList } from "./DanmakuReportList";
import { useReportDialog } from "../../components/useReportDialog";
import type { ReportAt } from "./DanmakuMount";
import { useRootData } from "../../components/useRootData";
import { DanmakuConnection } from "./connection";
import { AREA_FRACTION, DENSITY_LIMIT, FONT_PX, loadSettings, saveSettings, type DanmakuSettings } from "./settings";
import { DanmakuStage, type StageOptions } from "./stage";

export const BAR_SLOT_ID = "danmaku-bar";

const COLOR_NAMES: Record<DanmakuColor, string> = {
  "#ffffff": "白色",
  "#fe0302": "红色",
  "#ff7204": "橙色",
  "#ffd302": "黄色",
  "#00cd00": "绿色",
  "#00a0ff": "天蓝",
  "#4266be": "蓝色",
  "#cc0273": "紫红",
};
const MODE_NAMES: Record<DanmakuMode, string> = { scroll: "滚动", top: "顶部", bottom: "底部" };

/** The quiet note while the 弹幕 room cannot be reached (docs/decisions/0064-media-outage-retry.md). */
export const DANMAKU_UNAVAILABLE = "弹幕暂时不可用，视频可照常播放";

const subscribeNever = () => () => {};
const findBarSlot = () => document.getElementById(BAR_SLOT_ID);
const noSlot = () => null;

/** Where the bar goes in fullscreen: the fullscreen element when it holds the layer (the player box), else null. */
function subscribeFullscreen(onChange: () => void) {
  document.addEventListener("fullscreenchange", onChange);
  return () => document.removeEventListener("fullscreenchange", onChange);
}
const fullscreenElement = () => document.fullscreenElement;

/**
 * The overlay and the bar of one room (`room`: its key, shared/danmaku/model.ts roomKey).
 * `reportAtRef` is set to open 举报 for the comment at a point (the player's right click and long press).
 */
export function Danmaku({
  videoRef,
  room,
  reportAtRef,
}: {
  videoRef: RefObject<HTMLVideoElement | null>;
  room: string;
  reportAtRef: RefObject<ReportAt | null>;
}) {
  const { user } = useRootData();
  const report = useReportDialog();
  const signedIn = user !== null;
  // The layer element as state: the bar's place in fullscreen depends on it during render.
  const [layer, setLayer] = useState<HTMLDivElement | null>(null);
  const stageRef = useRef<DanmakuStage | null>(null);
  const connectionRef = useRef<DanmakuConnection | null>(null);
  const [settings, setSettings] = useState<DanmakuSettings>(loadSettings);
  // The room cannot be reached for now: a quiet note in the bar, the video plays on.
  const [unavailable, setUnavailable] = useState(false);
  // The bar's slot is in the server-rendered page: none on the server, found once hydrated.
  const slot = useSyncExternalStore(subscribeNever, findBarSlot, noSlot);
  // In fullscreen (of the player box) a compact bar sits inside it, above the player's controls.
  const fullscreen = useSyncExternalStore(subscribeFullscreen, fullscreenElement, noSlot);
  const inFullscreen = fullscreen !== null && layer !== null && fullscreen.contains(layer);
  const barTarget = inFullscreen ? fullscreen : slot;

  const stageOptions = (s: DanmakuSettings): StageOptions => ({
    on: s.on,
    fontPx: FONT_PX[s.fontSize],
    area: AREA_FRACTION[s.area],
    limit: DENSITY_LIMIT[s.density],
    blocked: s.blocked,
    reducedMotion: matchMedia("(prefers-reduced-motion: reduce)").matches,
  });

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !layer) return;
    const stage = new DanmakuStage(layer, video, stageOptions(settings));
    stageRef.current = stage;
    const connection = new DanmakuConnection(room, {
      comments: (comments, live) => {
        if (live) for (const c of comments) stage.live(c);
        else stage.add(comments);
      },
      canPost: () => {},
      removed: (ids) => stage.remove(ids),
      reachable: (up) => setUnavailable(!up),
    });
    connectionRef.current = connection;
    return () => {
      connection.close();
      stage.destroy();
    };
    // The stage is made once per video; settings changes reach it below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [room, videoRef, layer]);

  const place = parseRoomKey(room);
  const reportComment = (comment: DanmakuComment) => {
    if (!place) return;
    report.open({
      kind: "danmaku",
      titleId: place.videoId,
      episode: place.episode,
      comment: { id: comment.id, time: comment.time, text: comment.text },
      signedIn,
    });
  };

  useEffect(() => {
    reportAtRef.current = (x, y) => {
      const comment = settings.on ? stageRef.current?.commentAt(x, y) : null;
      if (!comment || !place) return false;
      reportComment(comment);
      return true;
    };
    return () => {
      reportAtRef.current = null;
    };
  });

  useEffect(() => {
    saveSettings(settings);
    stageRef.current?.setOptions(stageOptions(settings));
  }, [settings]);

  const update = (patch: Partial<DanmakuSettings>) => setSettings((s) => ({ ...s, ...patch }));

  return (
    <>
      <div
        ref={setLayer}
        className="danmaku-layer"
        data-on={settings.on ? "true" : "false"}
        aria-hidden="true"
        style={{ opacity: settings.opacity, fontSize: `${FONT_PX[settings.fontSize]}px` }}
      />
      {barTarget
        ? createPortal(
            <DanmakuControls
              settings={settings}
              update={update}
              signedIn={user !== null}
              compact={inFullscreen}
              unavailable={unavailable}
              recent={() => stageRef.current?.recent() ?? []}
              reportComment={reportComment}
              send={async (text, color, mode) => {
                const connection = connectionRef.current;
                if (!connection) return "发送失败，请稍后再试";
                const result = await connection.send({ text, color, mode, time: roundTime(videoRef.current?.currentTime ?? 0) });
                if (!result.ok) return result.message;
                stageRef.current?.live(result.comment, true);
                return null;
              }}
            />,
            barTarget,
          )
        : null}
      {report.dialog}
    </>
  );
}

interface ControlsProps {
  settings: DanmakuSettings;
  update: (patch: Partial<DanmakuSettings>) => void;
  signedIn: boolean;
  /** The short bar shown over the video in fullscreen: no settings, the same input. */
  compact: boolean;
  /** The 弹幕 service cannot be reached for now (shown quietly where messages go). */
  unavailable?: boolean;
  /** Sends a comment; resolves to an error message in Chinese, or null. */
  send: (text: string, color: DanmakuColor, mode: DanmakuMode) => Promise<string | null>;
  /** The 弹幕 on screen and just before, latest first (举报弹幕's list). */
  recent: () => DanmakuComment[];
  /** Opens the 举报 dialog for one 弹幕. */
  reportComment: (comment: DanmakuComment) => void;
}

/** 举报弹幕 without a pointer: a button that opens the list of recent 弹幕 (its module loads on the first press). */
function ReportButton({ recent, reportComment }: Pick<ControlsProps, "recent" | "reportComment">) {
  const button = useRef<HTMLButtonElement>(null);
  const [list, setList] = useState<{ List: typeof DanmakuReportList; comments: DanmakuComment[] } | null>(null);
  const close = () => {
    setList(null);
    button.current?.focus();
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        className="danmaku-report-open"
        aria-expanded={list !== null}
        onClick={() => {
          if (list) return close();
          import("./DanmakuReportList")
            .then((module) => setList({ List: module.DanmakuReportList, comments: recent() }))
            .catch((error: unknown) => console.error("举报列表加载失败", error));
        }}
      >
        举报弹幕
      </button>
      {list ? (
        <list.List
          comments={list.comments}
          onClose={close}
          onPick={(comment) => {
            // The dialog gives focus back to what had it: the button, not the list that goes away.
            close();
            reportComment(comment);
          }}
        />
      ) : null}
    </>
  );
}

export function DanmakuControls({ settings, update, signedIn, compact, unavailable = false, send, recent, reportComment }: ControlsProps) {
  const [text, setText] = useState("");
  const [color, setColor] = useState<DanmakuColor>("#ffffff");
  const [mode, setMode] = useState<DanmakuMode>("scroll");
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const [words, setWords] = useState(settings.blocked.join("，"));

  const submit = async () => {
    const trimmed = text.trim();
    if (!trimmed || busy) {
      if (!trimmed) setMessage("弹幕内容不能为空");
      return;
    }
    setBusy(true);
    const error = await send(trimmed, color, mode);
    setBusy(false);
    setMessage(error ?? "");
    if (!error) setText("");
  };

  return (
    <div className={compact ? "danmaku-bar danmaku-bar-fullscreen" : "danmaku-bar"}>
      <button type="button" className="danmaku-toggle" aria-pressed={settings.on} onClick={() => update({ on: !settings.on })}>
        弹幕
      </button>
      {signedIn ? (
        <form
          className="danmaku-form"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <select aria-label="弹幕颜色" value={color} onChange={(e) => setColor(e.target.value as DanmakuColor)}>
            {DANMAKU_COLORS.map((c) => (
              <option key={c} value={c}>
                {COLOR_NAMES[c]}
              </option>
            ))}
          </select>
          <select aria-label="弹幕位置" value={mode} onChange={(e) => setMode(e.target.value as DanmakuMode)}>
            {DANMAKU_MODES.map((m) => (
              <option key={m} value={m}>
                {MODE_NAMES[m]}
              </option>
            ))}
          </select>
          <input
            className="danmaku-input"
            type="text"
            aria-label="弹幕内容"
            placeholder="发一条友善的弹幕…"
            maxLength={MAX_TEXT_CHARS}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          <button type="submit" className="button button-primary danmaku-send" disabled={busy}>
            发送
          </button>
        </form>
      ) : (
        <a className="danmaku-signin" href={`/auth?mode=signin&next=${encodeURIComponent(location.pathname)}`}>
          登录后发送弹幕
        </a>
      )}
      {/* Not in the compact fullscreen bar: one line over the video, above the player's controls. */}
      {compact ? null : <ReportButton recent={recent} reportComment={reportComment} />}
      {compact ? null : (
        <details className="danmaku-settings">
          <summary>弹幕设置</summary>
          <label>
            不透明度
            <input type="range" min={0.2} max={1} step={0.1} value={settings.opacity} onChange={(e) => update({ opacity: Number(e.target.value) })} />
          </label>
          <label>
            显示区域
            <select value={settings.area} onChange={(e) => update({ area: e.target.value as DanmakuSettings["area"] })}>
              <option value="quarter">1/4 屏</option>
              <option value="half">半屏</option>
              <option value="full">全屏</option>
            </select>
          </label>
          <label>
            弹幕密度
            <select value={settings.density} onChange={(e) => update({ density: e.target.value as DanmakuSettings["density"] })}>
              <option value="low">稀疏</option>
              <option value="normal">适中</option>
              <option value="high">密集</option>
            </select>
          </label>
          <label>
            字号
            <select value={settings.fontSize} onChange={(e) => update({ fontSize: e.target.value as DanmakuSettings["fontSize"] })}>
              <option value="small">小</option>
              <option value="medium">中</option>
              <option value="large">大</option>
            </select>
          </label>
          <label>
            屏蔽词（用逗号分隔）
            <input
              type="text"
              value={words}
              onChange={(e) => setWords(e.target.value)}
              onBlur={() =>
                update({
                  blocked: words
                    .split(/[,，\n]/u)
                    .map((w) => w.trim())
                    .filter(Boolean),
                })
              }
            />
          </label>
        </details>
      )}
      <p className="danmaku-message" role="status">
        {message || (unavailable ? DANMAKU_UNAVAILABLE : "")}
      </p>
    </div>
  );
}
