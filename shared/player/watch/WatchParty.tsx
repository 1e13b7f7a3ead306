/**
 * 一起看 on the video page (a lazy chunk, WatchMount.tsx): opening a room (signed in) or joining
 * one by its link with a nickname, the short link and its QR code (uqr, made here: no outside
 * origin), the members with the host's mark, 仅房主控制 for the host, chat beside the video and,
 * if the viewer wants, over it like 弹幕 (inside the player box, so in fullscreen too), and the
 * player kept in step (sync.ts) over the room's socket (connection.ts).
 */
import { useEffect, useRef, useState, useSyncExternalStore, type FormEvent } from "react";
import { createPortal } from "react-dom";
import { useNavigate } from "../../router";
import { renderSVG } from "uqr";
import { MAX_TEXT_CHARS } from "../../danmaku/model";
import { videoPath } from "../../episodes";
import { useRootData } from "../../components/useRootData";
import {
  MAX_NICKNAME_CHARS,
  roomPath,
  WATCH_MESSAGES,
  type ChatLine,
  type Member,
  type RoomSettings,
  type RoomState,
  type ServerMessage,
} from "../../watch/protocol";
import { WatchConnection } from "./connection";
import { WatchSync, type RoomAnswer } from "./sync";
import type { ROOM_NEXT, ROOM_ROLE } from "./in-room";

export interface WatchPartyProps {
  videoId: string;
  episode: number;
  /** The room's code (a room's link), or null: the viewer is about to open one. */
  code: string | null;
  onLeave: () => void;
}

/** The player's end event in a room (in-room.ts): the same literal, checked by its type — a value import would make in-room.ts a chunk of its own. */
const ROOM_NEXT_EVENT: typeof ROOM_NEXT = "roomnext";
const ROOM_ROLE_EVENT: typeof ROOM_ROLE = "roomrole";

/** Tells the player (in-room.ts) whether this viewer is a guest of the room: its 即将播放下一集 is the host's only. */
function markGuest(guest: boolean): void {
  const root = document.documentElement;
  if ((root.dataset.roomGuest === "1") === guest) return;
  if (guest) root.dataset.roomGuest = "1";
  else delete root.dataset.roomGuest;
  document.dispatchEvent(new Event(ROOM_ROLE_EVENT));
}

const NICKNAME_KEY = "yingshi-watch-nickname";
const OVERLAY_KEY = "yingshi-watch-overlay";
/** Chat lines kept on screen. */
const LINES_SHOWN = 100;

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function store(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // private mode: not remembered
  }
}

/** The page's URL with ?room={code} (or without it), without a navigation; the player hears of it (in-room.ts). */
function markRoom(code: string | null): void {
  const url = new URL(location.href);
  const wasInRoom = url.searchParams.has("room");
  if (code) url.searchParams.set("room", code);
  else url.searchParams.delete("room");
  if (url.href === location.href) return;
  history.replaceState(history.state, "", url);
  if (wasInRoom !== !!code) document.dispatchEvent(new Event(ROOM_ROLE_EVENT));
}

const WIDE = "(min-width: 1001px)";
function subscribeWide(onChange: () => void) {
  const query = matchMedia(WIDE);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}
const isWide = () => matchMedia(WIDE).matches;
const never = () => false;

interface Room {
  you: string;
  host: string | null;
  members: Member[];
  settings: RoomSettings;
  state: RoomState;
  canChat: boolean;
}

export function WatchParty({ videoId, episode, code: linkCode, onLeave }: WatchPartyProps) {
  const { user, config } = useRootData();
  const navigate = useNavigate();
  const [code, setCode] = useState(linkCode);
  const [nickname, setNickname] = useState(() => stored(NICKNAME_KEY) ?? "");
  const [joinAs, setJoinAs] = useState<string | null>(() => (linkCode ? stored(NICKNAME_KEY) : null));
  const [room, setRoom] = useState<Room | null>(null);
  const [chat, setChat] = useState<ChatLine[]>([]);
  const [flying, setFlying] = useState<ChatLine[]>([]);
  const [overlay, setOverlay] = useState(() => stored(OVERLAY_KEY) !== "off");
  const [notice, setNotice] = useState<string | null>(null);
  const [chatError, setChatError] = useState<string | null>(null);
  const [ended, setEnded] = useState<string | null>(null);
  const [blocked, setBlocked] = useState(false);
  const [synced, setSynced] = useState(false);
  const [busy, setBusy] = useState(false);
  const [draft, setDraft] = useState("");
  const [showQr, setShowQr] = useState(false);
  const connectionRef = useRef<WatchConnection | null>(null);
  const syncRef = useRef<WatchSync | null>(null);
  /** The episode this page navigated to because the room changed it (not the viewer's choice). */
  const followingRef = useRef(episode);
  const episodeRef = useRef(episode);
  const wide = useSyncExternalStore(subscribeWide, isWide, never);

  const follow = (state: RoomState, roomCode: string, answer: RoomAnswer) => {
    if (state.videoId !== videoId) return;
    if (state.episode !== episodeRef.current) {
      followingRef.current = state.episode;
      void navigate(`${state.episodeCount > 1 ? videoPath(state.videoId, state.episode) : videoPath(state.videoId)}?room=${roomCode}`, {
        preventScrollReset: true,
      });
    }
    syncRef.current?.apply(state, answer);
  };

  // The socket and the sync, for as long as the viewer is in the room.
  useEffect(() => {
    if (!code || !joinAs) return;
    markRoom(code);
    const sync = new WatchSync({
      serverNow: () => connection.serverNow(),
      send: (control) => connection.send(control),
      blocked: setBlocked,
      synced: setSynced,
      pageEpisode: () => episodeRef.current,
    });
    /** This member's id in the room (its welcome): a state `by` it answers one of its controls. */
    let you: string | null = null;
    const onMessage = (message: ServerMessage) => {
      switch (message.type) {
        case "welcome":
          you = message.you;
          setRoom({
            you: message.you,
            host: message.host,
            members: message.members,
            settings: message.settings,
            state: message.state,
            canChat: message.canChat,
          });
          setChat(message.chat);
          setNotice(null);
          follow(message.state, code, "fresh");
          break;
        case "state":
          setRoom((r) => (r ? { ...r, state: message.state } : r));
          follow(message.state, code, message.by !== null && message.by === you ? "mine" : "other");
          break;
        case "members":
          setRoom((r) => (r ? { ...r, members: message.members, host: message.host } : r));
          break;
        case "settings":
          setRoom((r) => (r ? { ...r, settings: message.settings } : r));
          break;
        case "chat":
          setChat((lines) => [...lines.slice(-(LINES_SHOWN - 1)), message.line]);
          setFlying((lines) => [...lines.slice(-20), message.line]);
          if (message.nonce) setDraft("");
          break;
        case "error":
          if (message.code === "closed" || message.code === "full") {
            // Not in a room after all: the player plays as on any page (a page that waited for the room loads now: stream-engine.ts).
            markRoom(null);
            setEnded(message.message);
          } else if (message.nonce !== undefined || message.code === "chatNotSignedIn") setChatError(message.message);
          else if (message.code === "noNickname" || message.code.startsWith("nickname")) {
            setNotice(message.message);
            setJoinAs(null);
          } else {
            setNotice(message.message);
            // A control the room refused (too many, not valid): the player goes back to the room's state.
            syncRef.current?.refused();
          }
          break;
        case "pong":
          break;
      }
    };
    const connection = new WatchConnection(code, joinAs, {
      message: onMessage,
      down: (final) => {
        if (!final) setNotice("连接已断开，正在重新连接…");
      },
    });
    connectionRef.current = connection;
    syncRef.current = sync;
    return () => {
      sync.stop();
      connection.close();
      connectionRef.current = null;
      syncRef.current = null;
    };
    // `follow` reads the page through refs; the room is joined once per code and nickname.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [code, joinAs]);

  // The viewer picked another episode on the page: the room follows (or, host-only, sends it back).
  useEffect(() => {
    episodeRef.current = episode;
    syncRef.current?.pageChanged();
    if (!code) return;
    markRoom(code);
    if (episode === followingRef.current) return;
    followingRef.current = episode;
    if (room && room.state.episode !== episode) connectionRef.current?.send({ type: "episode", episode });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [episode]);

  // The player's end with 自动连播 (ROOM_NEXT, VideoPlayer.tsx): the host takes the whole room to
  // the next episode (every member follows the `episode` state, the host too); anyone else, or a
  // film's or the last episode's end, stays where the room is.
  useEffect(() => {
    const onNext = () => {
      if (room && room.host === room.you && room.state.episode < room.state.episodeCount)
        connectionRef.current?.send({ type: "episode", episode: room.state.episode + 1 });
    };
    document.addEventListener(ROOM_NEXT_EVENT, onNext);
    return () => document.removeEventListener(ROOM_NEXT_EVENT, onNext);
  }, [room]);

  const start = async (event: FormEvent) => {
    event.preventDefault();
    const name = nickname.trim();
    if (!name) return setNotice(WATCH_MESSAGES.noNickname);
    store(NICKNAME_KEY, name);
    if (code) return setJoinAs(name);
    setBusy(true);
    try {
      const position = document.querySelector<HTMLVideoElement>("video.player-video")?.currentTime ?? 0;
      const res = await fetch("/api/watch", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ videoId, episode, position }),
      });
      const body = await res.json<{ code?: string; error?: { message: string } }>();
      if (!res.ok || !body.code) return setNotice(body.error?.message ?? "创建房间失败，请稍后再试");
      setCode(body.code);
      setJoinAs(name);
    } catch {
      setNotice("创建房间失败，请检查网络后再试");
    } finally {
      setBusy(false);
    }
  };

  const leave = () => {
    markRoom(null);
    onLeave();
  };

  const sendChat = (event: FormEvent) => {
    event.preventDefault();
    setChatError(null);
    if (draft.trim()) connectionRef.current?.send({ type: "chat", text: draft, nonce: String(Date.now()) });
  };

  const link = code ? `${config.origin || location.origin}${roomPath(code)}` : "";
  const isHost = room !== null && room.host === room.you;
  // The player offers its 即将播放下一集 to the host only (in-room.ts).
  const guest = room !== null && !isHost && !ended;
  useEffect(() => markGuest(guest), [guest]);
  useEffect(() => () => markGuest(false), []);
  const player = typeof document === "undefined" ? null : document.querySelector(".player");

  let body;
  if (ended) {
    body = (
      <p className="watch-notice" role="alert">
        {ended}
        <button type="button" className="button" onClick={leave}>
          关闭
        </button>
      </p>
    );
  } else if (!code && !user) {
    body = (
      <p className="watch-notice" role="status">
        {WATCH_MESSAGES.signInToCreate}
        <a className="button button-primary" href={`/auth?mode=signin&next=${encodeURIComponent(location.pathname)}`}>
          登录
        </a>
      </p>
    );
  } else if (!joinAs) {
    body = (
      <form className="watch-join" onSubmit={(e) => void start(e)}>
        <label>
          昵称
          <input
            name="nickname"
            value={nickname}
            maxLength={MAX_NICKNAME_CHARS * 2}
            autoComplete="nickname"
            onChange={(e) => setNickname(e.target.value)}
            required
          />
        </label>
        <button type="submit" className="button button-primary" disabled={busy}>
          {code ? "加入一起看" : "创建房间"}
        </button>
      </form>
    );
  } else {
    body = (
      <>
        <div className="watch-share">
          <input className="watch-link" readOnly value={link} aria-label="房间链接" onFocus={(e) => e.currentTarget.select()} />
          <button type="button" className="button" onClick={() => void navigator.clipboard?.writeText(link).then(() => setNotice("链接已复制"))}>
            复制链接
          </button>
          <button type="button" className="button" aria-expanded={showQr} onClick={() => setShowQr(!showQr)}>
            二维码
          </button>
        </div>
        {showQr ? <div className="watch-qr" role="img" aria-label="房间二维码" dangerouslySetInnerHTML={{ __html: renderSVG(link, { border: 2 }) }} /> : null}
        {blocked ? (
          <button type="button" className="button button-primary watch-play" onClick={() => syncRef.current?.playNow()}>
            点击同步播放
          </button>
        ) : null}
        <div className="watch-options">
          {isHost ? (
            <label>
              <input
                type="checkbox"
                checked={room.settings.hostOnly}
                onChange={(e) => connectionRef.current?.send({ type: "settings", hostOnly: e.target.checked })}
              />
              仅房主控制
            </label>
          ) : room?.settings.hostOnly ? (
            <span className="muted">仅房主可控制播放</span>
          ) : null}
          <label>
            <input
              type="checkbox"
              checked={overlay}
              onChange={(e) => {
                setOverlay(e.target.checked);
                store(OVERLAY_KEY, e.target.checked ? "on" : "off");
              }}
            />
            聊天显示在画面上
          </label>
        </div>
        <h3 className="watch-heading">成员（{room?.members.length ?? 0}）</h3>
        <ul className="watch-members" aria-label="成员">
          {room?.members.map((m) => (
            <li key={m.id}>
              {m.nickname}
              {m.id === room.host ? <span className="watch-badge">房主</span> : null}
              {m.id === room.you ? <span className="muted">（我）</span> : null}
            </li>
          ))}
        </ul>
        <h3 className="watch-heading">聊天</h3>
        <ol className="watch-chat" aria-label="聊天" aria-live="polite">
          {chat.map((line) => (
            <li key={line.id}>
              <b>{line.nickname}</b>：{line.text}
            </li>
          ))}
        </ol>
        {room?.canChat ? (
          <form className="watch-chat-form" onSubmit={sendChat}>
            <input
              name="chat"
              value={draft}
              maxLength={MAX_TEXT_CHARS * 2}
              placeholder="说点什么…"
              aria-label="聊天内容"
              onChange={(e) => setDraft(e.target.value)}
            />
            <button type="submit" className="button button-primary">
              发送
            </button>
          </form>
        ) : room ? (
          <p className="watch-chat-signin muted">
            {WATCH_MESSAGES.chatNotSignedIn}
            <a href={`/auth?mode=signin&next=${encodeURIComponent(location.pathname + location.search)}`}>登录</a>
          </p>
        ) : null}
        <p className="watch-chat-error" role="alert">
          {chatError}
        </p>
      </>
    );
  }

  const panel = (
    <section className="watch-panel" aria-label="一起看" data-synced={room !== null && synced}>
      <header className="watch-header">
        <h2 className="watch-title">一起看</h2>
        {code ? (
          <span className="watch-room muted">
            房间 {code}
            {room ? (synced ? " · 已同步" : " · 同步中…") : null}
          </span>
        ) : null}
        <button type="button" className="button watch-leave" onClick={leave}>
          {joinAs ? "离开" : "取消"}
        </button>
      </header>
      <p className="watch-status" role="status">
        {notice}
      </p>
      {body}
    </section>
  );
  const slot = wide ? document.getElementById("watch-slot") : null;
  return (
    <>
      {slot ? createPortal(panel, slot) : panel}
      {overlay && player && flying.length > 0
        ? createPortal(
            <div className="watch-fly" aria-hidden="true">
              {flying.map((line, i) => (
                <span
                  key={line.id}
                  className="watch-fly-line"
                  style={{ top: `${(i % 6) * 1.8 + 0.5}em` }}
                  onAnimationEnd={() => setFlying((lines) => lines.filter((l) => l.id !== line.id))}
                >
                  {line.nickname}：{line.text}
                </span>
              ))}
            </div>,
            player,
          )
        : null}
    </>
  );
}
