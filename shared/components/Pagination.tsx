import { PageLink } from "./PageLink";
import { pageWindow } from "../pagination";

interface PaginationProps {
  page: number;
  pageCount: number;
  /** The href of a page number (path + query). */
  hrefFor: (page: number) => string;
}

/** Previous / up to 5 page numbers / next, as real links. */
export function Pagination({ page, pageCount, hrefFor }: PaginationProps) {
  if (pageCount <= 1) return null;
  return (
    <nav className="pagination" aria-label="分页">
      {page > 1 ? (
        <PageLink to={hrefFor(page - 1)} className="page-link" rel="prev">
          上一页
        </PageLink>
      ) : (
        <span className="page-link is-disabled" aria-disabled="true">
          上一页
        </span>
      )}
      {pageWindow(page, pageCount).map((n) =>
        n === page ? (
          <span key={n} className="page-link is-current" aria-current="page">
            {n}
          </span>
        ) : (
          <PageLink key={n} to={hrefFor(n)} className="page-link" aria-label={`第 ${n} 页`}>
            {n}
          </PageLink>
        ),
      )}
      {page < pageCount ? (
        <PageLink to={hrefFor(page + 1)} className="page-link" rel="next">
          下一页
        </PageLink>
      ) : (
        <span className="page-link is-disabled" aria-disabled="true">
          下一页
        </span>
      )}
    </nav>
  );
}
