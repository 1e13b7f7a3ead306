/** The /info/{pageType} pages (their texts are in info-pages.ts, loaded with the page). */
export const INFO_PAGE_TYPES = ["about", "contact", "help", "guide", "privacy", "terms", "copyright", "disclaimer", "feedback"] as const;

export type InfoPageType = (typeof INFO_PAGE_TYPES)[number];

export function isInfoPageType(value: string): value is InfoPageType {
  return (INFO_PAGE_TYPES as readonly string[]).includes(value);
}
