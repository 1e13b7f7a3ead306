/**
 * 视频管理's cover upload (worker/admin/views/Titles.tsx `data-cover-upload`): the chosen image is
 * cropped to the site's cover shape (16:9), scaled to 640×360 and encoded as WebP here in the
 * browser (OffscreenCanvas, else a canvas), then sent as image/webp to
 * POST /api/admin/titles/{id}/cover, which stores it in R2 as the title's N.webp.
 */
export const COVER_WIDTH = 640;
export const COVER_HEIGHT = 360;
const QUALITY = 0.82;

/** The source rectangle that fills the cover without stretching (centre crop). */
export function coverCrop(width: number, height: number): { sx: number; sy: number; sw: number; sh: number } {
  const scale = Math.max(COVER_WIDTH / width, COVER_HEIGHT / height);
  const sw = COVER_WIDTH / scale;
  const sh = COVER_HEIGHT / scale;
  return { sx: (width - sw) / 2, sy: (height - sh) / 2, sw, sh };
}

async function encode(bitmap: ImageBitmap): Promise<Blob> {
  const { sx, sy, sw, sh } = coverCrop(bitmap.width, bitmap.height);
  if (typeof OffscreenCanvas !== "undefined") {
    const canvas = new OffscreenCanvas(COVER_WIDTH, COVER_HEIGHT);
    const context = canvas.getContext("2d");
    if (context) {
      context.drawImage(bitmap, sx, sy, sw, sh, 0, 0, COVER_WIDTH, COVER_HEIGHT);
      return canvas.convertToBlob({ type: "image/webp", quality: QUALITY });
    }
  }
  const canvas = document.createElement("canvas");
  canvas.width = COVER_WIDTH;
  canvas.height = COVER_HEIGHT;
  canvas.getContext("2d")?.drawImage(bitmap, sx, sy, sw, sh, 0, 0, COVER_WIDTH, COVER_HEIGHT);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("toBlob"))), "image/webp", QUALITY));
}

export function setUpCoverUpload(root: ParentNode = document): void {
  for (const box of root.querySelectorAll<HTMLElement>("[data-cover-upload]")) {
    const id = box.dataset.coverUpload ?? "";
    const input = box.querySelector<HTMLInputElement>('input[type="file"]');
    const status = box.querySelector<HTMLElement>("[data-cover-status]");
    const previewOf = (): HTMLImageElement => {
      const shown = box.parentElement?.querySelector<HTMLImageElement>("img.cover-preview");
      if (shown) return shown;
      const image = document.createElement("img");
      image.className = "cover-preview";
      image.width = 320;
      image.height = 180;
      image.alt = "新封面";
      box.parentElement?.insertBefore(image, box);
      return image;
    };
    if (!input || !status) continue;
    status.textContent = "选择图片后会自动上传。";
    const upload = async (file: File) => {
      status.textContent = "正在转换…";
      try {
        const bitmap = await createImageBitmap(file);
        const webp = await encode(bitmap);
        bitmap.close();
        if (webp.type !== "image/webp") {
          status.textContent = "此浏览器无法生成 WebP 图片，请换用最新的 Chrome、Edge、Firefox 或 Safari。";
          return;
        }
        status.textContent = `正在上传（${Math.round(webp.size / 1024)} KB）…`;
        const res = await fetch(`/api/admin/titles/${encodeURIComponent(id)}/cover`, { method: "POST", headers: { "Content-Type": "image/webp" }, body: webp });
        const answer = await res.json<{ cover?: string; error?: { message: string } }>();
        if (!res.ok || !answer.cover) {
          status.textContent = answer.error?.message ?? "上传失败，请重试。";
          return;
        }
        status.textContent = `封面已更新（${COVER_WIDTH}×${COVER_HEIGHT}，${Math.round(webp.size / 1024)} KB）。`;
        previewOf().src = `${answer.cover}?v=${Date.now()}`;
      } catch {
        status.textContent = "无法读取这张图片，请换一张 JPG、PNG 或 WebP 图片。";
      } finally {
        input.value = "";
      }
    };
    input.addEventListener("change", () => {
      const file = input.files?.[0];
      if (file) void upload(file);
    });
  }
}
