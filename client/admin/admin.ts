/**
 * The 管理后台's browser script (docs/decisions/0072-admin-app.md): the pages are server-rendered
 * forms that work without it; this adds a confirmation before a form marked `data-confirm` is
 * sent, copy buttons (`data-copy` names the element whose text they copy), 视频管理's cover
 * upload (./cover-upload.ts) and 上传视频 (./video-upload.ts). No viewer page loads this file or its stylesheet.
 */
import "./admin.css";
import { setUpCoverUpload } from "./cover-upload";
import { setUpVideoUpload } from "./video-upload";

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = form.dataset.confirm;
  if (!question) return;
  if (!window.confirm(question)) {
    event.preventDefault();
    return;
  }
  // Confirmed here: the server need not ask again (without this script it shows its own confirmation page).
  const confirmed = form.elements.namedItem("confirmed");
  if (confirmed instanceof HTMLInputElement) confirmed.value = "yes";
});

setUpCoverUpload();
setUpVideoUpload();

for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-copy]")) {
  button.hidden = false;
  button.addEventListener("click", () => {
    const source = document.getElementById(button.dataset.copy ?? "");
    if (!source) return;
    const label = button.textContent;
    navigator.clipboard.writeText(source.textContent?.trim() ?? "").then(
      () => {
        button.textContent = "已复制";
        setTimeout(() => (button.textContent = label), 2000);
      },
      () => {
        button.textContent = "复制失败，请手动选择";
      },
    );
  });
}
