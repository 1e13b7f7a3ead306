/**
 * 上传视频 on a title's edit page (worker/admin/views/Titles.tsx `data-video-upload`): choose or
 * drop a file, see what it holds and what it will make, pick the cover frame, then pack and upload
 * in a Web Worker (./packer/pack-worker.ts) with a bar per rung, speed and time left, and publish
 * (POST /api/admin/uploads/{id}/publish) once everything is up. An unfinished upload of this
 * title is offered as 继续上传: the same file is chosen again and only what is missing is sent.
 */
import type { WorkerMessage, WorkerRequest } from "./packer/pack-worker";
import type { Probe } from "./packer/pack";
import type { StoredObject } from "./packer/uploader";

interface Pending {
  id: string;
  episode: number | null;
  source: { name: string; size: number; lastModified: number };
}

const PARALLEL = 4;

async function api<T>(path: string, init?: { method: string; json?: unknown }): Promise<T> {
  const res = await fetch(path, {
    method: init?.method ?? "GET",
    credentials: "same-origin",
    headers: init?.json === undefined ? {} : { "Content-Type": "application/json" },
    body: init?.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const body = (await res.json().catch(() => ({}))) as T & { error?: { message: string } };
  if (!res.ok) throw new Error(body.error?.message ?? `请求失败（${res.status}）`);
  return body;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const clock = (seconds: number) => {
  const s = Math.max(0, Math.round(seconds));
  return s >= 3600 ? `${Math.floor(s / 3600)}小时${Math.floor((s % 3600) / 60)}分` : s >= 60 ? `${Math.floor(s / 60)}分${s % 60}秒` : `${s}秒`;
};

function el<T extends HTMLElement>(tag: string, props: Record<string, unknown> = {}, ...children: Array<HTMLElement | string>): T {
  const node = Object.assign(document.createElement(tag), props) as T;
  add(node, ...children);
  return node;
}

/** Appends children (appendChild: the workers' types also declare an `Element.append`). */
function add(parent: HTMLElement, ...children: Array<HTMLElement | string>): void {
  for (const child of children) parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
}

export function setUpVideoUpload(root: ParentNode = document): void {
  for (const box of root.querySelectorAll<HTMLElement>("[data-video-upload]")) setUp(box);
}

function setUp(box: HTMLElement): void {
  const titleId = box.dataset.videoUpload ?? "";
  const input = box.querySelector<HTMLInputElement>('input[type="file"]')!;
  const target = box.querySelector("select[data-episode]") as HTMLSelectElement | null;
  const status = box.querySelector<HTMLElement>("[data-upload-status]")!;
  const details = box.querySelector<HTMLElement>("[data-upload-details]")!;
  const resumeBox = box.querySelector<HTMLElement>("[data-upload-resume]")!;
  status.textContent = "选择或拖入视频文件（MP4、MOV、MKV、WebM）。";
  let resuming: Pending | null = null;

  const say = (text: string, error = false) => {
    status.textContent = text;
    status.classList.toggle("error", error);
  };

  // 继续上传 is offered once the list arrives; the file input listens from the start (a file chosen before would be lost).
  void (async () => {
    const pendingList = await api<{ uploads: Pending[] }>(`/api/admin/uploads?title=${encodeURIComponent(titleId)}`).catch(() => ({ uploads: [] }));
    for (const p of pendingList.uploads.slice(0, 3)) {
      const resume = el<HTMLButtonElement>("button", { type: "button", className: "secondary", textContent: "继续上传" });
      const abandon = el<HTMLButtonElement>("button", { type: "button", className: "secondary", textContent: "放弃上传" });
      const row = el("p", {}, `未完成的上传：${p.source.name}（${mb(p.source.size)}${p.episode ? `，第${p.episode}集` : ""}） `, resume, " ", abandon);
      resume.addEventListener("click", () => {
        resuming = p;
        if (target) target.value = p.episode === null ? "" : String(p.episode);
        say(`请再次选择同一个文件「${p.source.name}」以继续上传。`);
        input.click();
      });
      abandon.addEventListener("click", () => {
        void api(`/api/admin/uploads/${p.id}/abandon`, { method: "POST", json: {} }).then(
          () => {
            row.remove();
            say("已放弃，已上传的文件已删除。");
          },
          (error: Error) => say(error.message, true),
        );
      });
      add(resumeBox, row);
    }
  })();

  const worker = new Worker(new URL("./packer/pack-worker.ts", import.meta.url), { type: "module" });
  const ask = (request: WorkerRequest) => worker.postMessage(request);

  let file: File | null = null;
  let probe: Probe | null = null;

  const choose = (chosen: File) => {
    if (resuming && (chosen.name !== resuming.source.name || chosen.size !== resuming.source.size || chosen.lastModified !== resuming.source.lastModified)) {
      say(`这不是同一个文件：继续上传需要「${resuming.source.name}」（${mb(resuming.source.size)}）。`, true);
      return;
    }
    file = chosen;
    details.replaceChildren();
    say(`正在读取「${chosen.name}」…`);
    ask({ kind: "probe", file: chosen });
  };
  input.addEventListener("change", () => {
    if (input.files?.[0]) choose(input.files[0]);
  });
  box.addEventListener("dragover", (event) => event.preventDefault());
  box.addEventListener("drop", (event) => {
    event.preventDefault();
    const dropped = event.dataTransfer?.files[0];
    if (dropped) choose(dropped);
  });

  let bars = new Map<number, HTMLProgressElement>();
  let started = 0;
  let segmentsPerRung = 1;
  let onDone: ((m: Extract<WorkerMessage, { kind: "done" }>) => void) | null = null;
  let onFail: ((error: Error) => void) | null = null;

  worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
    const m = event.data;
    if (m.kind === "probe") return showProbe(m.probe);
    if (m.kind === "error") {
      if (onFail) return onFail(new Error(m.message));
      return say(m.message, true);
    }
    if (m.kind === "progress") {
      for (const [height, done] of m.byRung) {
        const bar = bars.get(height);
        if (bar) bar.value = Math.min(done, bar.max);
      }
      const elapsed = (performance.now() - started) / 1000;
      const speed = m.sentBytes / Math.max(elapsed, 0.001);
      const fraction = probe ? Math.min(1, m.packedSeconds / Math.max(probe.duration, 0.001)) : 0;
      const left = fraction > 0.01 ? (elapsed * (1 - fraction)) / fraction : NaN;
      say(
        `已打包 ${clock(m.packedSeconds)} / ${clock(probe?.duration ?? 0)}，已上传 ${m.objects} 个文件 ${mb(m.bytes)}` +
          (m.skippedBytes ? `（其中 ${mb(m.skippedBytes)} 之前已上传）` : "") +
          `，速度 ${mb(speed)}/秒` +
          (Number.isFinite(left) ? `，剩余约 ${clock(left)}` : ""),
      );
      return;
    }
    onDone?.(m);
  };

  function showProbe(p: Probe): void {
    probe = p;
    const lines = [
      `时长 ${clock(p.duration)}，大小 ${mb(p.bytes)}，格式 ${p.container}`,
      `视频 ${p.video.codec}，${p.video.width}×${p.video.height}，${p.video.fps} fps`,
      `音频 ${p.audio ? `${p.audio.codec}，${p.audio.channels} 声道 ${p.audio.sampleRate} Hz` : "无"}${p.audioAction ? `：${p.audioAction}` : ""}`,
      p.rungs.length
        ? `将生成：${p.rungs.map((r) => `${r.height}p`).join("、")}（每段 2 秒），兼容 MP4 ${p.progressiveHeight}p，进度预览图（字幕在上方「字幕」中另行上传）`
        : "",
    ].filter(Boolean);
    details.replaceChildren(el("ul", {}, ...lines.map((l) => el("li", {}, l))));
    if (p.problem) {
      say(p.problem, true);
      return;
    }
    say("确认无误后开始上传。");
    const episode = target?.value ? Number(target.value) : null;
    const withCover = episode === null || episode === 1;
    let cover: HTMLInputElement | null = null;
    if (withCover && file) {
      const preview = el<HTMLVideoElement>("video", {
        src: URL.createObjectURL(file),
        controls: true,
        muted: true,
        preload: "metadata",
        className: "upload-preview",
      });
      preview.setAttribute("aria-label", "视频预览：拖动到要作封面的画面");
      cover = el<HTMLInputElement>("input", {
        type: "number",
        min: "0",
        step: "0.1",
        value: String(Math.min(1, Math.max(0, p.duration - 0.1))),
        id: "cover-time",
      });
      const pick = el<HTMLButtonElement>("button", { type: "button", className: "secondary", textContent: "用当前画面作封面" });
      pick.addEventListener("click", () => (cover!.value = preview.currentTime.toFixed(2)));
      add(details, preview, el("p", {}, el("label", { htmlFor: "cover-time" }, "封面取自第（秒）"), " ", cover, " ", pick));
    }
    const go = el<HTMLButtonElement>("button", { type: "button", textContent: resuming ? "继续上传" : "开始上传" });
    add(details, go);
    go.addEventListener("click", () => void run(p, episode, cover ? Number(cover.value) : null, go));
  }

  async function run(p: Probe, episode: number | null, coverTime: number | null, go: HTMLButtonElement): Promise<void> {
    if (!file) return;
    go.disabled = true;
    try {
      const upload = resuming
        ? { id: resuming.id }
        : await api<{ id: string }>("/api/admin/uploads", {
            method: "POST",
            json: { titleId, episode, source: { name: file.name, size: file.size, lastModified: file.lastModified } },
          });
      const { objects: stored } = await api<{ objects: StoredObject[] }>(`/api/admin/uploads/${upload.id}`);
      segmentsPerRung = Math.ceil(p.duration / 2) + 2;
      bars = new Map(
        p.rungs.map((r) => {
          const bar = el<HTMLProgressElement>("progress", { max: segmentsPerRung, value: 0, id: `rung-${r.height}` });
          add(details, el("p", { className: "rung" }, el("label", { htmlFor: bar.id }, `${r.height}p `), bar));
          return [r.height, bar];
        }),
      );
      started = performance.now();
      const done = new Promise<Extract<WorkerMessage, { kind: "done" }>>((resolve, reject) => {
        onDone = resolve;
        onFail = reject;
      });
      // A series (episodes to choose from; a film has only 视频本身): its 片头 / 片尾 are looked for ("" is episode 1).
      const seriesEpisode = target && target.options.length > 1 ? (episode ?? 1) : null;
      ask({ kind: "pack", file, uploadId: upload.id, stored, coverTime, parallel: PARALLEL, seriesEpisode });
      const result = await done.finally(() => (onDone = onFail = null));
      for (const bar of bars.values()) bar.value = bar.max;
      say("全部文件已上传，正在校验并发布…");
      const published = await api<{ markers: number }>(`/api/admin/uploads/${upload.id}/publish`, {
        method: "POST",
        json: { objects: result.objects, bytes: result.bytes, markers: result.markers },
      });
      say(
        `已发布：${result.objects} 个文件，${mb(result.bytes)}（本次发送 ${mb(result.sentBytes)}）。` +
          (published.markers > 0 ? `找到片头 / 片尾 ${published.markers} 处，可在「片头 / 片尾」中修改（刷新后显示）。` : ""),
      );
      box.dataset.published = "yes";
      resumeBox.replaceChildren();
    } catch (error) {
      say((error as Error).message, true);
      go.disabled = false;
    }
  }
}
