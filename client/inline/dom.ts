/** What the inline scripts of a player page add to the <head> (client/inline/page-head.ts, page-boot.ts). */

/** A <link rel="modulepreload"> per file. */
export function preload(files: readonly string[]): void {
  for (const href of files) {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = href;
    document.head.appendChild(link);
  }
}

/** A module script. */
export function addModule(src: string): void {
  const script = document.createElement("script");
  script.type = "module";
  script.src = src;
  document.head.appendChild(script);
}
