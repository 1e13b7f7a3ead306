import { Link, isRouteErrorResponse, useRouteError } from "../router";
import { PageMeta } from "../components/PageMeta";
import { notFoundKindOfData } from "../loaders";

interface NotFoundProps {
  title: string;
  message: string;
  heading?: string;
}

function NotFound({ title, message, heading = title }: NotFoundProps) {
  return (
    <>
      <PageMeta title={title} description={message} path="/404" noindex />
      <div className="not-found">
        <h1 className="not-found-title">{heading}</h1>
        <p className="not-found-text">{message}</p>
        <Link to="/" className="button button-primary">
          返回首页
        </Link>
      </div>
    </>
  );
}

/** Unknown video id (spec §8). */
export function VideoNotFound() {
  return <NotFound title="视频未找到" message="抱歉，您要查看的视频不存在或已被删除。" />;
}

/** Unknown info page (spec §8). */
export function InfoNotFound() {
  return <NotFound title="页面未找到" message="抱歉，您要查看的页面不存在。" />;
}

/** Unknown route (spec §8). */
export function RouteNotFound() {
  return <NotFound title="404 页面未找到" heading="404 页面未找到" message="抱歉，您访问的页面不存在或已被移除。" />;
}

/** Error boundary of the pages: 404s by kind, anything else as a friendly error. */
export function PageError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    const kind = notFoundKindOfData(error.data);
    if (kind === "video") return <VideoNotFound />;
    if (kind === "info") return <InfoNotFound />;
    return <RouteNotFound />;
  }
  console.error(error);
  return (
    <>
      <PageMeta title="出错了" description="页面加载失败，请稍后重试。" path="/" noindex />
      <div className="not-found" role="alert">
        <h1 className="not-found-title">页面加载失败</h1>
        <p className="not-found-text">抱歉，页面出现了问题，请刷新页面或稍后重试。</p>
        <Link to="/" className="button button-primary">
          返回首页
        </Link>
      </div>
    </>
  );
}
