import { videos } from "../../shared/catalogue/index";
import { TITLE_PINYIN } from "../../shared/search/generated/pinyin-keys";
import { createSearchEngine } from "../../shared/search/index";
import { toSimplified } from "../../shared/search/t2s";

/** The site's search: the catalogue, its build-time pinyin keys and the traditional→simplified table. */
export const searchEngine = createSearchEngine(videos, TITLE_PINYIN, toSimplified);
