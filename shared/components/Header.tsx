import { useId, useState, type FormEvent } from "react";
import { Link, NavLink, useLocation, useNavigate } from "react-router";
import { MAIN_CATEGORIES } from "../catalogue/index";
import { useRootData } from "../root-data";
import { Logo } from "./Logo";
import { SignOutButton } from "./SignOutButton";

/** The search box: goes to /search?q=… only when the trimmed text is non-empty. */
export function searchHref(text: string): string | null {
  const q = text.trim();
  return q ? `/search?q=${encodeURIComponent(q)}` : null;
}

export function Header() {
  const { config, user } = useRootData();
  const navigate = useNavigate();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const currentQuery = location.pathname === "/search" ? (new URLSearchParams(location.search).get("q") ?? "") : "";
  const [text, setText] = useState(currentQuery);

  // Close the mobile menu on navigation; keep the box in step with the URL (adjusted while
  // rendering, as React advises for state that follows a changed input, not in an effect).
  const locationKey = location.pathname + location.search;
  const [renderedFor, setRenderedFor] = useState(locationKey);
  if (renderedFor !== locationKey) {
    setRenderedFor(locationKey);
    setMenuOpen(false);
    setText(currentQuery);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const href = searchHref(text);
    if (href) void navigate(href);
  }

  return (
    <header className="site-header">
      <div className="header-inner">
        <Link to="/" className="header-logo" aria-label={`${config.siteName}首页`}>
          <Logo name={config.siteName} />
        </Link>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          aria-label={menuOpen ? "关闭菜单" : "打开菜单"}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span className="menu-toggle-bar" aria-hidden="true" />
          <span className="menu-toggle-bar" aria-hidden="true" />
          <span className="menu-toggle-bar" aria-hidden="true" />
        </button>
        <div id={menuId} className={menuOpen ? "header-menu is-open" : "header-menu"}>
          <form className="search-form" role="search" action="/search" method="get" onSubmit={onSubmit}>
            <input
              type="search"
              name="q"
              className="search-input"
              placeholder="搜索影片、剧集、综艺…"
              aria-label="搜索视频"
              value={text}
              maxLength={100}
              onChange={(e) => setText(e.target.value)}
              enterKeyHint="search"
            />
            <button type="submit" className="search-button">
              搜索
            </button>
          </form>
          <nav className="main-nav" aria-label="分类导航">
            {MAIN_CATEGORIES.map((name) => (
              <NavLink key={name} to={`/category/${name}`} className="nav-link">
                {name}
              </NavLink>
            ))}
          </nav>
          <div className="header-account">
            {user ? (
              <>
                <Link to="/profile" className="button button-ghost">
                  个人中心
                </Link>
                <SignOutButton className="button button-ghost" />
              </>
            ) : (
              <Link to="/auth" className="button button-primary">
                登录/注册
              </Link>
            )}
          </div>
        </div>
      </div>
    </header>
  );
}
