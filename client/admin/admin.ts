/**
 * The 管理后台's browser script (docs/decisions/0072-admin-app.md): the pages are server-rendered
 * forms that work without it; this adds a confirmation before a form marked `data-confirm` is
 * sent and copy buttons (`data-copy` names the element whose text they copy). No viewer page
 * loads this file or its stylesheet.
 */
import "./admin.css";

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = form.dataset.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});

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
