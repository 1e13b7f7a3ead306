import { useLoaderData, useLocation, useNavigate } from "../router";
import { categoryDisplayName } from "../catalogue/categories";
import { Pagination } from "../components/Pagination";
import { PageLink } from "../components/PageLink";
import { PageMeta } from "../components/PageMeta";
import { EmptyListing, VideoGrid } from "../components/VideoGrid";
import { LETTERS, LISTING_SORTS, listingQuery, QUICK_SORTS, RATING_FILTERS, type ListingSort, type ListingState, type RatingFilter } from "../listing";
import type { ListingData } from "../loaders";

function headingOf(data: ListingData): string {
  if (data.kind === "latest") return "最新更新";
  if (data.kind === "top-rated") return "高分推荐";
  return categoryDisplayName(data.category ?? "all");
}

function descriptionOf(data: ListingData, heading: string): string {
  if (data.kind === "latest") return "最新上线的电影、电视剧、综艺与纪录片，按上线时间排序，免费高清在线观看。";
  if (data.kind === "top-rated") return "口碑高分作品合集，按评分从高到低排列，免费高清在线观看。";
  return `${heading}：共 ${data.total} 部作品，支持按类型、地区、年份、字母、评分筛选与多种排序，免费高清在线观看。`;
}

interface FacetOption {
  label: string;
  change: Partial<ListingState>;
  current: boolean;
}

/** One row of the facet bar: plain links (they work without JavaScript), the current one marked. */
function FacetRow({ id, label, options, href }: { id: string; label: string; options: FacetOption[]; href: (change: Partial<ListingState>) => string }) {
  return (
    <div className="facet-row">
      <span className="facet-label" id={id}>
        {label}
      </span>
      <ul className="facet-options" aria-labelledby={id}>
        {options.map((o) => (
          <li key={o.label}>
            <PageLink to={href(o.change)} className="facet-link" aria-current={o.current ? "true" : undefined}>
              {o.label}
            </PageLink>
          </li>
        ))}
      </ul>
    </div>
  );
}

type FacetKey = "genre" | "area" | "year" | "letter";

/** The filter rows in order: 类型 and 地区 only where the listing has values, 年份 and 字母 always. */
function facetRows(
  data: ListingData,
  state: ListingState,
): Array<{ key: FacetKey; label: string; values: ReadonlyArray<string | number>; current: string | number | null; always: boolean }> {
  return [
    { key: "genre", label: "类型", values: data.facets.genres, current: state.genre, always: false },
    { key: "area", label: "地区", values: data.facets.areas, current: state.area, always: false },
    { key: "year", label: "年份", values: data.facets.years, current: state.year, always: true },
    { key: "letter", label: "字母", values: LETTERS, current: state.letter, always: true },
  ];
}

export function ListingPage() {
  const data = useLoaderData<ListingData>();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const heading = headingOf(data);
  const state = data.state;
  const href = (change: Partial<ListingState>) => pathname + listingQuery(state, data.defaultSort, change);
  const go = (change: Partial<ListingState>) => void navigate(href(change));

  return (
    <>
      <PageMeta title={heading} description={descriptionOf(data, heading)} path={pathname + listingQuery(state, data.defaultSort, { page: state.page })} />
      <div className="page-header">
        <h1 className="page-title">{heading}</h1>
        <p className="page-subtitle">{`共 ${data.total} 部作品`}</p>
      </div>

      <nav className="facets" aria-label="筛选">
        {facetRows(data, state).map((row) =>
          row.values.length > 0 || row.always ? (
            <FacetRow
              key={row.key}
              id={`facet-${row.key}`}
              label={row.label}
              href={href}
              options={[
                { label: "全部", change: { [row.key]: null }, current: row.current === null },
                ...row.values.map((v) => ({ label: String(v), change: { [row.key]: v }, current: row.current === v })),
              ]}
            />
          ) : null,
        )}
        <FacetRow
          id="facet-sort"
          label="排序"
          href={href}
          options={QUICK_SORTS.map((s) => ({ label: s.label, change: { sort: s.value }, current: state.sort === s.value }))}
        />
      </nav>

      <form className="listing-controls" method="get" action={pathname} aria-label="筛选与排序" onSubmit={(e) => e.preventDefault()}>
        <label className="control">
          <span className="control-label">年份</span>
          <select name="year" value={state.year ?? ""} onChange={(e) => go({ year: e.target.value ? Number(e.target.value) : null })}>
            <option value="">全部年份</option>
            {data.facets.years.map((y) => (
              <option key={y} value={y}>
                {`${y}年`}
              </option>
            ))}
          </select>
        </label>
        <label className="control">
          <span className="control-label">评分</span>
          <select name="rating" value={state.rating} onChange={(e) => go({ rating: Number(e.target.value) as RatingFilter })}>
            {RATING_FILTERS.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <label className="control">
          <span className="control-label">排序</span>
          <select name="sort" value={state.sort} onChange={(e) => go({ sort: e.target.value as ListingSort })}>
            {LISTING_SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        {state.genre !== null ? <input type="hidden" name="genre" value={state.genre} /> : null}
        {state.area !== null ? <input type="hidden" name="area" value={state.area} /> : null}
        {state.letter !== null ? <input type="hidden" name="letter" value={state.letter} /> : null}
        {state.view === "list" ? <input type="hidden" name="view" value="list" /> : null}
        <noscript>
          <button type="submit" className="button button-secondary">
            应用筛选
          </button>
        </noscript>
        <div className="view-toggle" role="group" aria-label="显示方式">
          <PageLink to={href({ view: "grid", page: state.page })} className="view-button" aria-current={state.view === "grid" ? "true" : undefined} replace>
            网格
          </PageLink>
          <PageLink to={href({ view: "list", page: state.page })} className="view-button" aria-current={state.view === "list" ? "true" : undefined} replace>
            列表
          </PageLink>
        </div>
      </form>

      {data.items.length > 0 ? (
        <VideoGrid items={data.items} layout={state.view} eagerCount={state.view === "grid" ? 2 : 1} headingLevel={2} />
      ) : (
        <EmptyListing />
      )}
      <Pagination page={state.page} pageCount={data.pageCount} hrefFor={(page) => href({ page })} />
    </>
  );
}
