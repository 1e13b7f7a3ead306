import { useRootData } from "./useRootData";

interface PageMetaProps {
  /** Page title without the site name. */
  title: string;
  description: string;
  /** Path (and query) of the canonical URL, e.g. "/category/电影". */
  path: string;
  /** Absolute or root-relative image for link previews. */
  image?: string;
  type?: "website" | "video.movie" | "video.tv_show" | "video.episode";
  noindex?: boolean;
}

/** <title>, description, canonical link and Open Graph tags; React hoists them into <head>. */
export function PageMeta({ title, description, path, image = "/logo.svg", type = "website", noindex }: PageMetaProps) {
  const { config } = useRootData();
  const fullTitle = `${title} - ${config.siteName}`;
  const url = config.origin + encodeURI(path);
  const imageUrl = image.startsWith("http") ? image : config.origin + image;
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={url} />
      {noindex ? <meta name="robots" content="noindex" /> : null}
      <meta property="og:site_name" content={config.siteName} />
      <meta property="og:locale" content="zh_CN" />
      <meta property="og:type" content={type} />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      <meta property="og:image" content={imageUrl} />
    </>
  );
}
