import { useLoaderData, useNavigate } from "../router";
import { Pagination } from "../components/Pagination";
import { PageMeta } from "../components/PageMeta";
import { Highlighted } from "../components/Highlighted";
import { VideoGrid } from "../components/VideoGrid";
import type { SearchData } from "../loaders";
import { SEARCH_SORTS, searchQuery, type SearchSort, type SearchState } from "../search/query";

export function SearchPage() {
  const data = useLoaderData<SearchData>();
  const navigate = useNavigate();
  const state = data.state;
  const href = (change: Partial<SearchState>) => "/search" + searchQuery(state, change);

  if (!state.q) {
    return (
      <>
        <PageMeta title="搜索" description="搜索电影、电视剧、综艺与纪录片，按标题、简介、标签或分类查找想看的作品。" path="/search" />
        <div className="page-header">
          <h1 className="page-title">搜索</h1>
        </div>
        <div className="empty-state" role="status">
          <p className="empty-title">开始搜索</p>
          <p className="empty-hint">在上方搜索框输入片名、演员风格、标签或分类，找到想看的作品。</p>
        </div>
      </>
    );
  }

  return (
    <>
      <PageMeta
        title={`“${state.q}”的搜索结果`}
        description={`与“${state.q}”相关的影视作品，共 ${data.total} 个结果，免费高清在线观看。`}
        path={href({ page: state.page })}
      />
      <div className="page-header">
        <h1 className="page-title">
          “<span className="search-term">{state.q}</span>”的搜索结果
        </h1>
        <p className="page-subtitle">共找到 {data.total} 个结果</p>
      </div>

      {data.categories.length > 0 ? (
        <form className="listing-controls" method="get" action="/search" aria-label="筛选与排序" onSubmit={(e) => e.preventDefault()}>
          <input type="hidden" name="q" value={state.q} />
          <label className="control">
            <span className="control-label">分类</span>
            <select name="category" value={state.category ?? ""} onChange={(e) => void navigate(href({ category: e.target.value || null }))}>
              <option value="">全部分类</option>
              {data.categories.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
          <label className="control">
            <span className="control-label">排序</span>
            <select name="sort" value={state.sort} onChange={(e) => void navigate(href({ sort: e.target.value as SearchSort }))}>
              {SEARCH_SORTS.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
          <noscript>
            <button type="submit" className="button button-secondary">
              应用筛选
            </button>
          </noscript>
        </form>
      ) : null}

      {data.items.length > 0 ? (
        <VideoGrid items={data.items} eagerCount={2} headingLevel={2} renderTitle={(item, title) => <Highlighted text={title} marks={data.marks[item.id]} />} />
      ) : (
        <>
          <div className="empty-state" role="status">
            <p className="empty-title">未找到相关结果</p>
            <ul className="empty-hint-list">
              <li>请检查输入的关键词是否有错别字</li>
              <li>尝试使用更简单的关键词</li>
              <li>尝试使用其他关键词</li>
            </ul>
          </div>
          {data.recommended.length > 0 ? (
            <section className="search-recommended" aria-labelledby="search-recommended-title">
              <h2 id="search-recommended-title" className="section-title">
                热门推荐
              </h2>
              <VideoGrid items={data.recommended} headingLevel={3} />
            </section>
          ) : null}
        </>
      )}
      <Pagination page={state.page} pageCount={data.pageCount} hrefFor={(page) => href({ page })} />
    </>
  );
}
