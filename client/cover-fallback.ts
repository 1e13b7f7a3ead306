/**
 * Replaces a cover that failed to load with its data-fallback image (spec §2).
 * One capturing listener covers every image, including those that failed
 * before this script ran and those rendered later.
 */
export function installCoverFallback(doc: Document): void {
  const swap = (img: HTMLImageElement) => {
    const fallback = img.dataset.fallback;
    if (fallback && !img.src.endsWith(fallback)) {
      img.src = fallback;
      img.classList.add("is-fallback");
    }
  };
  doc.addEventListener(
    "error",
    (event) => {
      if (event.target instanceof HTMLImageElement) swap(event.target);
    },
    true,
  );
  for (const img of Array.from(doc.images)) {
    if (img.complete && img.naturalWidth === 0 && img.getAttribute("src")) swap(img);
  }
}
