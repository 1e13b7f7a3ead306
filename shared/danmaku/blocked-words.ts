/**
 * The default blocked words of 弹幕 (a small list; the DANMAKU_BLOCKED_WORDS variable adds
 * more, see worker/danmaku/api.ts). Matching folds width, case and white space (model.ts).
 */
export const DEFAULT_BLOCKED_WORDS: readonly string[] = ["傻逼", "煞笔", "操你妈", "草泥马", "去死", "约炮", "代开发票", "加微信", "赌博网站", "博彩"];
