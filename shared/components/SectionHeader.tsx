import { PageLink } from "./PageLink";

interface SectionHeaderProps {
  id: string;
  title: string;
  moreHref?: string;
  moreLabel?: string;
}

export function SectionHeader({ id, title, moreHref, moreLabel = "查看更多" }: SectionHeaderProps) {
  return (
    <div className="section-header">
      <h2 id={id} className="section-title">
        {title}
      </h2>
      {moreHref ? (
        <PageLink to={moreHref} className="section-more" aria-label={`${title}：${moreLabel}`}>
          {`${moreLabel} ›`}
        </PageLink>
      ) : null}
    </div>
  );
}
