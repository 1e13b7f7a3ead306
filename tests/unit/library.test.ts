import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { videos } from "../../scripts/catalogue/titles";
import {
  continueWatching,
  DEFAULT_PREFS,
  lastEpisode,
  EMPTY_LIBRARY,
  HISTORY_LIMIT,
  PLAYBACK_RATES,
  mergeLibraries,
  parseLibrary,
  parsePrefs,
  recordPosition,
  resumePosition,
  toggleFavourite,
  type HistoryEntry,
  type Library,
} from "../../shared/library";

const ids = videos.map((v) => v.id);
const entry = (id: string, updatedAt: number, position = 30, duration = 100): HistoryEntry => ({ id, position, duration, updatedAt });
const lib = (favourites: string[] = [], history: HistoryEntry[] = []): Library => ({ favourites, history });

/** Any library that parseLibrary could return. */
const arbLibrary = fc
  .record({
    favourites: fc.uniqueArray(fc.constantFrom(...ids), { maxLength: 10 }),
    history: fc.uniqueArray(
      fc.record({
        id: fc.constantFrom(...ids),
        position: fc.double({ min: 0, max: 200, noNaN: true }),
        duration: fc.constant(200),
        updatedAt: fc.integer({ min: 0, max: 1e12 }),
      }),
      { selector: (e) => e.id, maxLength: 50 },
    ),
  })
  .map((raw) => parseLibrary(raw));

describe("constants", () => {
  it("match the spec", () => {
    expect(HISTORY_LIMIT).toBe(100);
    expect(DEFAULT_PREFS).toEqual({
      volume: 0.8,
      muted: false,
      rate: 1,
      quality: "auto",
      subtitles: false,
      subtitleLanguage: "zh-CN",
      autoSkip: false,
      autoNext: true,
      watchLaterAutoRemove: true,
    });
    expect(EMPTY_LIBRARY).toEqual({ favourites: [], history: [] });
    expect(PLAYBACK_RATES).toEqual([0.5, 0.75, 1, 1.25, 1.5, 2]);
  });
});

describe("toggleFavourite", () => {
  it("adds (newest first) and removes, without touching the input", () => {
    const start = lib(["video_002"]);
    const added = toggleFavourite(start, "video_001");
    expect(added.favourites).toEqual(["video_001", "video_002"]);
    expect(start.favourites).toEqual(["video_002"]);
    expect(toggleFavourite(added, "video_001").favourites).toEqual(["video_002"]);
  });

  it("twice is the identity", () => {
    fc.assert(
      fc.property(arbLibrary, fc.constantFrom(...ids), (l, id) => {
        const back = toggleFavourite(toggleFavourite(l, id), id);
        expect(new Set(back.favourites)).toEqual(new Set(l.favourites));
      }),
    );
  });
});

describe("recordPosition", () => {
  it("moves the id to the front, one entry per id", () => {
    const start = lib([], [entry("video_002", 20), entry("video_001", 10)]);
    const next = recordPosition(start, "video_001", 42, 100, 30);
    expect(next.history).toEqual([entry("video_001", 30, 42), entry("video_002", 20)]);
    expect(start.history).toHaveLength(2);
  });

  it("caps the history at HISTORY_LIMIT, dropping the oldest", () => {
    let l = EMPTY_LIBRARY;
    for (let i = 0; i < 120; i++) l = recordPosition(l, ids[i % ids.length] + (i >= 50 ? `_${i}` : ""), 10, 100, i);
    expect(l.history).toHaveLength(HISTORY_LIMIT);
    expect(l.history[0].updatedAt).toBe(119);
    expect(l.history.at(-1)?.updatedAt).toBe(20);
  });

  it("cleans bad numbers: negative or NaN become 0, the position never passes the duration", () => {
    expect(recordPosition(EMPTY_LIBRARY, "video_001", -3, Number.NaN, 1).history[0]).toEqual({ id: "video_001", position: 0, duration: 0, updatedAt: 1 });
    expect(recordPosition(EMPTY_LIBRARY, "video_001", 130, 120, 1).history[0].position).toBe(120);
  });
});

describe("resumePosition", () => {
  const at = (position: number, duration: number) => lib([], [entry("video_001", 1, position, duration)]);
  it("offers a saved position from 5 s on", () => {
    expect(resumePosition(at(754, 3600), "video_001")).toBe(754);
    expect(resumePosition(at(5, 100), "video_001")).toBe(5);
  });
  it("does not offer less than 5 s, the last 5 s, or an unknown video", () => {
    expect(resumePosition(at(4.9, 100), "video_001")).toBeNull();
    expect(resumePosition(at(95.1, 100), "video_001")).toBeNull();
    expect(resumePosition(at(100, 100), "video_001")).toBeNull();
    expect(resumePosition(at(30, 100), "video_002")).toBeNull();
    expect(resumePosition(EMPTY_LIBRARY, "video_001")).toBeNull();
  });
  it("with an unknown duration only the 5 s floor applies", () => {
    expect(resumePosition(at(12, 0), "video_001")).toBe(12);
  });
});

describe("mergeLibraries", () => {
  it("unites favourites, a's order first", () => {
    expect(mergeLibraries(lib(["video_003", "video_001"]), lib(["video_001", "video_002"])).favourites).toEqual(["video_003", "video_001", "video_002"]);
  });

  it("keeps the newest save per id, newest first", () => {
    const a = lib([], [entry("video_001", 50, 10), entry("video_002", 5, 20)]);
    const b = lib([], [entry("video_002", 70, 99), entry("video_001", 40, 11), entry("video_003", 60)]);
    expect(mergeLibraries(a, b).history).toEqual([entry("video_002", 70, 99), entry("video_003", 60), entry("video_001", 50, 10)]);
  });

  it("is idempotent, has EMPTY as identity, caps the history and keeps it sorted", () => {
    fc.assert(
      fc.property(arbLibrary, arbLibrary, (a, b) => {
        expect(mergeLibraries(a, a)).toEqual(a);
        expect(mergeLibraries(a, EMPTY_LIBRARY)).toEqual(a);
        expect(mergeLibraries(EMPTY_LIBRARY, a)).toEqual(a);
        const m = mergeLibraries(a, b);
        expect(m.history.length).toBeLessThanOrEqual(HISTORY_LIMIT);
        expect(new Set(m.history.map((e) => e.id)).size).toBe(m.history.length);
        for (let i = 1; i < m.history.length; i++) expect(m.history[i - 1].updatedAt).toBeGreaterThanOrEqual(m.history[i].updatedAt);
        expect(new Set(m.favourites)).toEqual(new Set([...a.favourites, ...b.favourites]));
        // Every id of either side keeps its newest save.
        for (const e of [...a.history, ...b.history]) {
          const kept = m.history.find((h) => h.id === e.id);
          if (kept) expect(kept.updatedAt).toBeGreaterThanOrEqual(e.updatedAt);
        }
      }),
    );
  });
});

describe("parseLibrary", () => {
  it("tolerates anything that is not a library", () => {
    for (const raw of [null, undefined, 1, "x", [], true, { favourites: "video_001", history: {} }]) {
      expect(parseLibrary(raw)).toEqual({ favourites: [], history: [] });
    }
  });

  it("drops malformed ids, non-strings and duplicates from favourites (the catalogue is not in the browser: pages show the titles it still has)", () => {
    expect(parseLibrary({ favourites: ["video_001", "video_999", "../video_001", "video_1", 7, null, "video_001", "video_002"] }).favourites).toEqual([
      "video_001",
      "video_999",
      "video_002",
    ]);
  });

  it("drops bad history entries and keeps the newest of duplicates, sorted newest first", () => {
    const parsed = parseLibrary({
      history: [
        entry("video_001", 10),
        entry("video-999", 20),
        { id: "video_002", position: "3", duration: 100, updatedAt: 5 },
        { id: "video_003", position: Number.NaN, duration: 100, updatedAt: 5 },
        { id: "video_004", position: -1, duration: 100, updatedAt: 5 },
        { id: "video_005", position: 1, duration: Infinity, updatedAt: 5 },
        { id: "video_006", position: 1, duration: 100 },
        null,
        "video_007",
        entry("video_001", 30, 55),
        entry("video_008", 25, 500, 100),
      ],
    });
    expect(parsed.history).toEqual([entry("video_001", 30, 55), entry("video_008", 25, 100, 100)]);
  });

  it("caps the history", () => {
    const history = Array.from({ length: 300 }, (_, i) => entry(ids[i % ids.length], i));
    expect(parseLibrary({ history }).history.length).toBeLessThanOrEqual(HISTORY_LIMIT);
  });

  it("round-trips through JSON", () => {
    fc.assert(
      fc.property(arbLibrary, (l) => {
        expect(parseLibrary(JSON.parse(JSON.stringify(l)))).toEqual(l);
      }),
    );
  });

  it("never throws and always returns a clean library", () => {
    fc.assert(
      fc.property(fc.anything(), (raw) => {
        const l = parseLibrary(raw);
        expect(Array.isArray(l.favourites) && Array.isArray(l.history)).toBe(true);
      }),
    );
  });
});

describe("parsePrefs", () => {
  it("defaults anything missing or wrong", () => {
    for (const raw of [null, undefined, "x", 3, [], {}, { volume: "0.5", muted: "yes", rate: "2" }, { volume: Number.NaN, rate: Infinity }]) {
      expect(parsePrefs(raw)).toEqual(DEFAULT_PREFS);
    }
  });

  it("keeps good values", () => {
    expect(
      parsePrefs({ volume: 0.3, muted: true, rate: 1.5, quality: 720, subtitles: true, subtitleLanguage: "en", autoSkip: true, watchLaterAutoRemove: false }),
    ).toEqual({
      volume: 0.3,
      muted: true,
      rate: 1.5,
      quality: 720,
      subtitles: true,
      subtitleLanguage: "en",
      autoSkip: true,
      autoNext: true,
      watchLaterAutoRemove: false,
    });
    expect(parsePrefs({ volume: 0, muted: false, rate: 0.5, quality: "auto", subtitles: false })).toEqual({
      volume: 0,
      muted: false,
      rate: 0.5,
      quality: "auto",
      subtitles: false,
      subtitleLanguage: "zh-CN",
      autoSkip: false,
      autoNext: true,
      watchLaterAutoRemove: true,
    });
    expect(parsePrefs({ autoSkip: "yes", watchLaterAutoRemove: 0 })).toMatchObject({ autoSkip: false, autoNext: true, watchLaterAutoRemove: true });
  });

  it("keeps a 清晰度 only when it is auto or a plausible rendition height", () => {
    for (const bad of ["720", 720.5, 0, -360, 100, 10_000, null, {}]) expect(parsePrefs({ quality: bad }).quality).toBe("auto");
    for (const good of [144, 270, 360, 1080, 2160]) expect(parsePrefs({ quality: good }).quality).toBe(good);
    expect(parsePrefs({ subtitles: "yes" }).subtitles).toBe(false);
    for (const bad of ["fr", "zh-cn", 1, null]) expect(parsePrefs({ subtitleLanguage: bad }).subtitleLanguage).toBe("zh-CN");
  });

  it("clamps the volume to 0..1 and the rate to the allowed list", () => {
    expect(parsePrefs({ volume: 7 }).volume).toBe(1);
    expect(parsePrefs({ volume: -1 }).volume).toBe(0);
    expect(parsePrefs({ rate: 16 }).rate).toBe(2);
    expect(parsePrefs({ rate: 0.1 }).rate).toBe(0.5);
    expect(parsePrefs({ rate: 1.3 }).rate).toBe(1.25);
    expect(parsePrefs({ rate: -1 }).rate).toBe(1);
    fc.assert(
      fc.property(fc.anything(), (raw) => {
        const p = parsePrefs(raw);
        expect(p.volume).toBeGreaterThanOrEqual(0);
        expect(p.volume).toBeLessThanOrEqual(1);
        expect(PLAYBACK_RATES).toContain(p.rate);
      }),
    );
  });
});

describe("series: a position per episode", () => {
  // video_003 has 6 episodes, video_001 is a film.
  it("each episode keeps its own position, and the title's last watched episode is the newest save", () => {
    let l = recordPosition(EMPTY_LIBRARY, "video_003", 30, 100, 1, 1);
    l = recordPosition(l, "video_003", 42, 100, 2, 3);
    l = recordPosition(l, "video_003", 12, 100, 3, 2);
    expect(resumePosition(l, "video_003", 1)).toBe(30);
    expect(resumePosition(l, "video_003", 3)).toBe(42);
    expect(resumePosition(l, "video_003", 2)).toBe(12);
    expect(resumePosition(l, "video_003", 4)).toBeNull();
    expect(lastEpisode(l, "video_003")).toBe(2);
    expect(lastEpisode(l, "video_001")).toBe(1);
    // Saving an episode again replaces its entry; episode 1 is stored without an episode field.
    l = recordPosition(l, "video_003", 50, 100, 4, 3);
    expect(l.history.map((h) => [h.episode ?? 1, h.position])).toEqual([
      [3, 50],
      [2, 12],
      [1, 30],
    ]);
    expect("episode" in l.history[2]).toBe(false);
    expect(lastEpisode(l, "video_003")).toBe(3);
  });

  it("stored episodes are whole numbers from 1 (the worker drops those the catalogue lacks); old entries without one are episode 1", () => {
    const parsed = parseLibrary({
      favourites: [],
      history: [
        { id: "video_003", episode: 6, position: 10, duration: 100, updatedAt: 5 },
        { id: "video_003", episode: 7, position: 10, duration: 100, updatedAt: 4 },
        { id: "video_003", episode: 0, position: 10, duration: 100, updatedAt: 3 },
        { id: "video_003", episode: "2", position: 10, duration: 100, updatedAt: 3 },
        { id: "video_001", episode: 2, position: 10, duration: 100, updatedAt: 2 },
        { id: "video_003", position: 20, duration: 100, updatedAt: 1 },
        { id: "video_003", episode: 1, position: 25, duration: 100, updatedAt: 0 },
      ],
    });
    expect(parsed.history).toEqual([
      { id: "video_003", episode: 6, position: 10, duration: 100, updatedAt: 5 },
      { id: "video_003", episode: 7, position: 10, duration: 100, updatedAt: 4 },
      { id: "video_001", episode: 2, position: 10, duration: 100, updatedAt: 2 },
      { id: "video_003", position: 20, duration: 100, updatedAt: 1 },
    ]);
  });

  it("merging keeps the newest save of each episode", () => {
    const a = lib([], [{ id: "video_003", episode: 2, position: 10, duration: 100, updatedAt: 5 }, entry("video_003", 1)]);
    const b = lib([], [{ id: "video_003", episode: 2, position: 60, duration: 100, updatedAt: 9 }, entry("video_003", 3, 70)]);
    expect(mergeLibraries(a, b).history).toEqual([{ id: "video_003", episode: 2, position: 60, duration: 100, updatedAt: 9 }, entry("video_003", 3, 70)]);
  });

  /** Episodes present per title, from the catalogue file (the page gets them from the worker's cards). */
  const episodesOf = (id: string) => {
    const video = videos.find((v) => v.id === id);
    return video ? (video.episodes?.length ?? 1) : undefined;
  };

  it("继续观看: per title the last episode with its position; a finished episode gives way to the next; finished films and last episodes are left out", () => {
    const l = lib(
      [],
      [
        { id: "video_003", episode: 2, position: 40, duration: 100, updatedAt: 9 },
        { id: "video_003", episode: 1, position: 99, duration: 100, updatedAt: 8 },
        { id: "video_007", episode: 4, position: 98, duration: 100, updatedAt: 7 },
        entry("video_001", 6, 99, 100),
        { id: "video_012", episode: 4, position: 99, duration: 100, updatedAt: 5 },
        entry("video_002", 4, 30, 100),
      ],
    );
    expect(continueWatching(l, 10, episodesOf)).toEqual([
      { id: "video_003", episode: 2, position: 40, duration: 100 },
      { id: "video_007", episode: 5, position: 0, duration: 0 },
      { id: "video_002", episode: 1, position: 30, duration: 100 },
    ]);
    expect(continueWatching(l, 1, episodesOf)).toHaveLength(1);
    expect(continueWatching(EMPTY_LIBRARY, 6, episodesOf)).toEqual([]);
  });
});
