/** What the session list shows of a device: browser and system from the user agent (bowser), country in Chinese. */
import Bowser from "bowser";

const regionNames = new Intl.DisplayNames(["zh-CN"], { type: "region" });

/** "Chrome 120 · Windows" — or 未知设备 when the user agent says nothing usable. */
export function deviceLabel(userAgent: string | null): string {
  if (!userAgent) return "未知设备";
  const { browser, os } = Bowser.parse(userAgent);
  const major = browser.version?.split(".")[0];
  const name = browser.name ? `${browser.name}${major ? ` ${major}` : ""}` : "";
  // Windows is known by its marketing name ("10", "11"); other systems by their major version.
  const osVersion = os.name === "Windows" ? os.versionName : os.version?.split(".")[0];
  const system = os.name ? `${os.name}${osVersion ? ` ${osVersion}` : ""}` : "";
  return [name, system].filter(Boolean).join(" · ") || "未知设备";
}

/** 中国, 美国 … from a two-letter code; null when unknown. */
export function countryName(code: string | null): string | null {
  if (!code) return null;
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}
