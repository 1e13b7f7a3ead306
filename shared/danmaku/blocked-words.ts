/**
 * The default blocked words of 弹幕 (a small list; the DANMAKU_BLOCKED_WORDS variable adds
 * more, see worker/danmaku/api.ts). Matching drops invisible characters and folds width, case, punctuation and traditional characters (model.ts containsBlockedWord).
 */
export const DEFAULT_BLOCKED_WORDS: readonly string[] = ["傻逼", "煞笔", "操你妈", "草泥马", "去死", "约炮", "代开发票", "加微信", "赌博网站", "博彩"];
