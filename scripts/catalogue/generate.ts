/**
 * A synthetic catalogue for tests and the bench (`npm run bench -- --catalogue 10000`): valid
 * entries with unrepeated Chinese titles and 50–80-character descriptions, a spread of
 * categories, genres, areas, years, ratings and durations, and some series with episodes.
 * Deterministic for a seed.
 */
import type { TitleEntry } from "../../shared/catalogue/schema";
import { seededRng, type Rng } from "../../shared/random";

const MAIN = ["电影", "电视剧", "综艺", "纪录片"] as const;
const GENRES = [
  "剧情",
  "喜剧",
  "爱情",
  "悬疑",
  "科幻",
  "动作",
  "家庭",
  "历史",
  "战争",
  "奇幻",
  "冒险",
  "犯罪",
  "青春",
  "美食",
  "自然",
  "音乐",
  "动画",
  "网络剧",
  "短剧",
  "微电影",
];
const AREAS = ["中国大陆", "中国香港", "中国台湾", "日本", "韩国", "美国", "英国", "法国", "泰国", "印度"];
const LANGUAGES = ["国语", "粤语", "英语", "日语", "韩语"];
const TAGS = ["高分", "热播", "独播", "4K", "经典", "新片", "口碑", "烧脑", "治愈", "励志"];
const TITLE_CHARS =
  "爱春夏秋冬风花雪月山河湖海星辰云雨雾港城乡街巷灯火光影梦歌诗书画心人家国天地日夜长短新旧红蓝白黑金银铁石木林竹松梅兰菊江南北东西时岁年华少远归来去行路桥船车马龙凤虎鹤鱼鸟声色味香甜苦笑泪情缘守望追寻秘密传奇英雄侠客少女青春岛屿边境草原沙漠森林雪山冰川火焰";
const DESCRIPTION_CHARS =
  "一个在的了是我有他这中大来上们到说时地也子就道出要于下得可你年生自会那后能对着事其里所去行过家十用发天如然作方成者多日都三小军二无同么经法当起与好看学进种将还分此心前面又定见只主没公从知";
const NAME_CHARS =
  "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾萧田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤";

const pick = <T>(rng: Rng, items: readonly T[] | string): T => items[Math.floor(rng() * items.length)] as T;
const text = (rng: Rng, chars: string, length: number) => Array.from({ length }, () => pick<string>(rng, chars)).join("");
const two = (n: number) => String(n).padStart(2, "0");

function uniqueList<T>(rng: Rng, items: readonly T[], count: number): T[] {
  const out = new Set<T>();
  while (out.size < count) out.add(pick(rng, items));
  return [...out];
}

/** `count` titles (video_001 …), media numbered 1…count. */
export function generateCatalogue(count: number, seed = 18): TitleEntry[] {
  const rng = seededRng(seed);
  const titles = new Set<string>();
  const descriptions = new Set<string>();
  const entries: TitleEntry[] = [];
  for (let n = 1; n <= count; n++) {
    let title = "";
    while (!title || titles.has(title)) title = text(rng, TITLE_CHARS, 2 + Math.floor(rng() * 4));
    titles.add(title);
    let description = "";
    while (!description || descriptions.has(description)) description = text(rng, DESCRIPTION_CHARS, 50 + Math.floor(rng() * 31));
    descriptions.add(description);
    const main = MAIN[Math.floor(rng() * MAIN.length)];
    const category = [main, ...uniqueList(rng, GENRES, 1 + Math.floor(rng() * 3))];
    const film = main === "电影";
    const duration = film
      ? `0${1 + Math.floor(rng() * 2)}:${two(Math.floor(rng() * 60))}:${two(Math.floor(rng() * 60))}`
      : `${two(20 + Math.floor(rng() * 40))}:${two(Math.floor(rng() * 60))}`;
    // Episode media are numbered 10000 + title×100 + N (shared/catalogue/schema.ts): up to title 9899.
    const episodeCount = !film && n <= 9899 && n % 3 === 0 ? 2 + Math.floor(rng() * 6) : 0;
    const entry: TitleEntry = {
      id: `video_${String(n).padStart(3, "0")}`,
      title,
      description,
      category,
      tags: uniqueList(rng, TAGS, 1 + Math.floor(rng() * 3)),
      year: 1990 + Math.floor(rng() * 37),
      rating: Math.round((5 + rng() * 4.9) * 10) / 10,
      duration,
      coverImage: `${n}.webp`,
      videoFile: `${n}.mp4`,
      area: pick(rng, AREAS),
      language: pick(rng, LANGUAGES),
      directors: [text(rng, NAME_CHARS, 1) + text(rng, TITLE_CHARS, 2)],
      actors: Array.from({ length: 2 + Math.floor(rng() * 3) }, () => text(rng, NAME_CHARS, 1) + text(rng, TITLE_CHARS, 1 + Math.floor(rng() * 2))).filter(
        (name, i, list) => list.indexOf(name) === i,
      ),
      status: film ? "HD" : episodeCount > 0 ? `全${episodeCount}集` : "HD",
    };
    if (episodeCount > 0)
      entry.episodes = Array.from({ length: episodeCount }, (_, i) => ({
        videoFile: i === 0 ? `${n}.mp4` : `${10000 + n * 100 + i + 1}.mp4`,
        duration: `${two(20 + Math.floor(rng() * 40))}:${two(Math.floor(rng() * 60))}`,
      }));
    entries.push(entry);
  }
  return entries;
}
