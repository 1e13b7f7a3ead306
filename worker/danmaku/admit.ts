/**
 * The checks a 弹幕 post passes before the room stores it, wherever it enters: in the room object
 * for DPlayer's POST (room.ts `post`), in the socket's shard for a post over the socket
 * (shard.ts), so the room itself spends nothing on them (docs/decisions/0065-danmaku-shards.md).
 * In order: the comment itself (its text, time, mode, colour), 弹幕管理's word list and the
 * author's mute (policy.ts: one D1 read, so a change applies to this very post), the blocked words
 * (the saved list, else `defaultWords`; after folding width, case and traditional characters),
 * then whether the author may post (`standing`: muted, or a session that ended — poster.ts). The
 * rate limit comes after, in the room (room.ts `publish`), so a refused comment never counts.
 */
import { checkDraft, containsBlockedWord, type DanmakuDraft, type DanmakuErrorCode } from "../../shared/danmaku/model";
import { toSimplified } from "../../shared/search/t2s";
import { readPostPolicy } from "./policy";
import type { Standing } from "./poster";

/** A refusal's `message` replaces DANMAKU_MESSAGES[code] where it names more (a mute's end). */
export type Refusal = { ok: false; code: DanmakuErrorCode; retryAfterMs?: number; message?: string };

export type Admission = { ok: true; draft: DanmakuDraft } | Refusal;

export async function admit(
  env: Env,
  author: string,
  input: unknown,
  defaultWords: readonly string[],
  standing: (mutedUntil: number | null | undefined) => Promise<Standing>,
): Promise<Admission> {
  const checked = checkDraft(input, [], toSimplified);
  if (!checked.ok) return { ok: false, code: checked.code };
  const policy = await readPostPolicy(env.DB, author);
  if (containsBlockedWord(checked.draft.text, policy.words ?? defaultWords, toSimplified)) return { ok: false, code: "blocked" };
  const may = await standing(policy.mutedUntil);
  if (!may.ok) return may.code === "muted" ? { ok: false, code: "muted", message: may.message } : { ok: false, code: may.code };
  return { ok: true, draft: checked.draft };
}
