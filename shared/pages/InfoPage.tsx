import { Link, useLoaderData } from "../router";
import { INFO_PAGES, INFO_PAGE_TYPES } from "../content/info-pages";
import { PageMeta } from "../components/PageMeta";
import type { InfoData } from "../loaders";
import { useRootData } from "../components/useRootData";

export function InfoPage() {
  const { type } = useLoaderData<InfoData>();
  const { config } = useRootData();
  const page = INFO_PAGES[type];
  return (
    <>
      <PageMeta title={page.title} description={page.summary} path={`/info/${type}`} />
      <div className="info-layout">
        <nav className="info-nav" aria-label="帮助与说明">
          <ul>
            {INFO_PAGE_TYPES.map((t) => (
              <li key={t}>
                <Link to={`/info/${t}`} aria-current={t === type ? "page" : undefined}>
                  {INFO_PAGES[t].title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <article className="info-article">
          <h1 className="page-title">{page.title}</h1>
          <p className="info-summary">{page.summary}</p>
          {page.sections.map((section) => (
            <section key={section.heading} id={section.id} className="info-section">
              <h2>{section.heading}</h2>
              {section.paragraphs.map((p) => (
                <p key={p}>{p}</p>
              ))}
              {section.address ? (
                <p className="info-address">
                  <code>{config.origin + section.address}</code>
                </p>
              ) : null}
              {section.items ? (
                <ul>
                  {section.items.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              ) : null}
              {section.figures ? (
                <div className="info-figures">
                  {section.figures.map((figure) => (
                    <figure key={figure.src} className="info-figure">
                      <img src={figure.src} alt={figure.alt} width={figure.width} height={figure.height} loading="lazy" decoding="async" />
                      <figcaption>{figure.caption}</figcaption>
                    </figure>
                  ))}
                </div>
              ) : null}
              {section.links?.map((link) => (
                <p key={link.to}>
                  <Link to={link.to}>{link.label}</Link>
                </p>
              ))}
            </section>
          ))}
          {type === "contact" || type === "feedback" || type === "about" ? (
            <section className="info-section contact-box">
              <h2>联系方式</h2>
              <p>{config.businessContact}</p>
            </section>
          ) : null}
        </article>
      </div>
    </>
  );
}
