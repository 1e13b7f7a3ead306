import { MAIN_CATEGORIES } from "../catalogue/categories";
import { useRootData } from "./useRootData";
import { COPYRIGHT_YEAR } from "../site-config";
import { PageLink } from "./PageLink";

const SUPPORT_LINKS = [
  { to: "/info/help", label: "帮助中心" },
  { to: "/info/contact", label: "联系我们" },
  { to: "/info/guide", label: "使用指南" },
  { to: "/info/feedback", label: "意见反馈" },
];

const LEGAL_LINKS = [
  { to: "/info/about", label: "关于我们" },
  { to: "/info/privacy", label: "隐私政策" },
  { to: "/info/terms", label: "服务条款" },
  { to: "/info/copyright", label: "版权声明" },
  { to: "/info/disclaimer", label: "免责声明" },
];

export function Footer() {
  const { config } = useRootData();
  return (
    <footer className="site-footer">
      <div className="footer-inner">
        <section className="footer-brand" aria-labelledby="footer-brand-title">
          <h2 id="footer-brand-title" className="footer-title">
            {config.siteName}
          </h2>
          <p>免费在线观看电影、电视剧、综艺与纪录片。高清流畅，无需注册，随时随地畅享好内容。</p>
        </section>
        <nav className="footer-column" aria-labelledby="footer-quick">
          <h2 id="footer-quick" className="footer-title">
            快速导航
          </h2>
          <ul>
            <li>
              <PageLink to="/">首页</PageLink>
            </li>
            {MAIN_CATEGORIES.map((name) => (
              <li key={name}>
                <PageLink to={`/category/${name}`}>{name}</PageLink>
              </li>
            ))}
            <li>
              <PageLink to="/schedule">追剧周表</PageLink>
            </li>
            <li>
              <PageLink to="/library">我的片单</PageLink>
            </li>
          </ul>
        </nav>
        <nav className="footer-column" aria-labelledby="footer-support">
          <h2 id="footer-support" className="footer-title">
            服务支持
          </h2>
          <ul>
            {SUPPORT_LINKS.map((l) => (
              <li key={l.to}>
                <PageLink to={l.to}>{l.label}</PageLink>
              </li>
            ))}
          </ul>
        </nav>
        <nav className="footer-column" aria-labelledby="footer-legal">
          <h2 id="footer-legal" className="footer-title">
            法律信息
          </h2>
          <ul>
            {LEGAL_LINKS.map((l) => (
              <li key={l.to}>
                <PageLink to={l.to}>{l.label}</PageLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="footer-bottom">
        <p className="footer-contact">{config.businessContact}</p>
        <p>{`© ${COPYRIGHT_YEAR} ${config.siteName} 版权所有`}</p>
        <p>{config.filingNumber}</p>
        <p>{config.cultureLicence}</p>
      </div>
    </footer>
  );
}
