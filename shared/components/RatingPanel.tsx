/**
 * 评分 on the video page (docs/decisions/0115-viewer-ratings.md): the site's rating next to the
 * viewers' average and count, the distribution by stars, and — signed in — the viewer's own score
 * as five stars with halves (a radio group of 1–10: arrow keys move and rate, as Douban's 10 points
 * = 5 stars). Signed out, a 登录 link. Rendered whole by the server (readable without JavaScript);
 * in the browser it is a lazy island (RatingIsland.tsx): this module is its own chunk.
 */
import { useEffect, useRef, useState } from "react";
import { formatRating } from "../format";
import { RATING_MIN_COUNT, scoreLabel, STAR_ROWS, starShares, starsOf, type RatingSummary } from "../ratings";

export interface RatingPanelProps {
  titleId: string;
  /** The catalogue's own rating (站内评分). */
  siteRating: number;
  /** The viewers' totals as the page's data has them (the server's, up to a minute old). */
  summary: RatingSummary;
  signedIn: boolean;
  /** The page's path, where sign-in comes back to. */
  path: string;
}

/** How long the widget waits after the last change before saving it (arrow keys rate at every step). */
const SAVE_DELAY_MS = 600;

const SCORES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;

interface RatingAnswer {
  summary: RatingSummary;
  mine: number | null;
}

async function sendRating(titleId: string, score: number | null): Promise<RatingAnswer> {
  const res = await fetch(`/api/ratings/${encodeURIComponent(titleId)}`, {
    method: score === null ? "DELETE" : "PUT",
    headers: { "Content-Type": "application/json" },
    credentials: "same-origin",
    ...(score === null ? {} : { body: JSON.stringify({ score }) }),
  });
  const body = (await res.json().catch(() => null)) as (RatingAnswer & { error?: { message?: string } }) | null;
  if (!res.ok || !body?.summary) throw new Error(body?.error?.message ?? "评分失败，请稍后再试");
  return body;
}

/** An average as stars in halves (display only: the number next to it is what is read out). */
function StarsShown({ value }: { value: number }) {
  return (
    <span className="stars-shown" data-halves={Math.round(value)} aria-hidden="true">
      <span className="stars-shown-on" />
    </span>
  );
}

export function RatingPanel({ titleId, siteRating, summary: initial, signedIn, path }: RatingPanelProps) {
  const [summary, setSummary] = useState(initial);
  const [mine, setMine] = useState<number | null>(null);
  const [hover, setHover] = useState<number | null>(null);
  const [status, setStatus] = useState("");
  const saved = useRef<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const sequence = useRef(0);

  // The viewer's own score (and totals newer than a cached page's) once signed in.
  useEffect(() => {
    if (!signedIn) return;
    let live = true;
    void fetch(`/api/ratings/${encodeURIComponent(titleId)}`, { credentials: "same-origin" })
      .then((res) => (res.ok ? res.json<RatingAnswer>() : null))
      .then((answer) => {
        if (!live || !answer || sequence.current > 0) return;
        saved.current = answer.mine;
        setMine(answer.mine);
        setSummary(answer.summary);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [signedIn, titleId]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const save = (score: number | null, delay: number) => {
    clearTimeout(timer.current);
    const ticket = ++sequence.current;
    setMine(score);
    setStatus("");
    timer.current = setTimeout(() => {
      sendRating(titleId, score).then(
        (answer) => {
          if (ticket !== sequence.current) return;
          saved.current = answer.mine;
          setSummary(answer.summary);
          setStatus(answer.mine === null ? "已删除评分" : `已评分：${scoreLabel(answer.mine)}`);
        },
        (error: unknown) => {
          if (ticket !== sequence.current) return;
          setMine(saved.current);
          setStatus(error instanceof Error ? error.message : "评分失败，请稍后再试");
        },
      );
    }, delay);
  };

  const shown = hover ?? mine ?? 0;
  const shares = starShares(summary);
  return (
    <section className="rating-panel" aria-labelledby="rating-title">
      <h2 id="rating-title" className="video-subtitle">
        评分
      </h2>
      <div className="rating-scores">
        <p className="rating-score">
          <span className="rating-score-name">站内评分</span>
          <strong className="rating-score-value">{formatRating(siteRating)}</strong>
          <StarsShown value={siteRating} />
        </p>
        <p className="rating-score" data-testid="viewer-rating">
          <span className="rating-score-name">观众评分</span>
          {summary.average !== null ? (
            <>
              <strong className="rating-score-value">{formatRating(summary.average)}</strong>
              <StarsShown value={summary.average} />
            </>
          ) : (
            <strong className="rating-score-value">暂无</strong>
          )}
          <span className="rating-count">{`${summary.count}人评分`}</span>
        </p>
      </div>
      <ul className="rating-bars" aria-label="观众评分分布">
        {STAR_ROWS.map((row, i) => (
          <li key={row} className="rating-bar-row">
            <span className="rating-bar-name">{`${row}星`}</span>
            <progress className="rating-bar" max={100} value={shares[i]} aria-label={`${row}星 ${shares[i]}%`} />
            <span className="rating-bar-share">{`${shares[i]}%`}</span>
          </li>
        ))}
      </ul>
      {summary.count < RATING_MIN_COUNT ? <p className="muted rating-note">{`满${RATING_MIN_COUNT}人评分后，观众评分计入评分排序`}</p> : null}
      {signedIn ? (
        <fieldset className="rating-mine">
          <legend className="rating-mine-title">我的评分</legend>
          <div className="rating-stars" onMouseLeave={() => setHover(null)}>
            {SCORES.map((score) => (
              <label
                key={score}
                className={`rating-half${score % 2 ? " is-left" : " is-right"}${score <= shown ? " is-on" : ""}`}
                onMouseEnter={() => setHover(score)}
              >
                <input
                  type="radio"
                  className="visually-hidden"
                  name={`rating-${titleId}`}
                  value={score}
                  checked={mine === score}
                  aria-label={`${starsOf(score)}星（${score}分）`}
                  onChange={() => save(score, SAVE_DELAY_MS)}
                />
              </label>
            ))}
          </div>
          <span className="rating-mine-word">{shown > 0 ? scoreLabel(shown) : "点击星星评分"}</span>
          {mine !== null ? (
            <button type="button" className="link-button rating-remove" onClick={() => save(null, 0)}>
              删除评分
            </button>
          ) : null}
          <p className="rating-status" role="status">
            {status}
          </p>
        </fieldset>
      ) : (
        <p className="rating-signin">
          <a href={`/auth?mode=signin&next=${encodeURIComponent(path)}`}>登录</a>后评分
        </p>
      )}
    </section>
  );
}
