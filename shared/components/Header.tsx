import { useId, useState } from "react";
import { NavLink, useLocation } from "../router";
import { MAIN_CATEGORIES } from "../catalogue/categories";
import { useRootData } from "./useRootData";
import { Logo } from "./Logo";
import { PageLink } from "./PageLink";
import { SearchBox } from "./SearchBox";
import { SignOutButton } from "./SignOutButton";

/** The search box: goes to /search?q=… only when the trimmed text is non-empty. */
export { searchHref } from "../search/query";

export function Header() {
  const { config, user } = useRootData();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();

  // Close the mobile menu on navigation (adjusted while rendering, as React advises for state
  // that follows a changed input, not in an effect).
  const locationKey = location.pathname + location.search;
  const [renderedFor, setRenderedFor] = useState(locationKey);
  if (renderedFor !== locationKey) {
    setRenderedFor(locationKey);
    setMenuOpen(false);
  }

  return (
    <header className="site-header">
      <div className="header-inner">
        <PageLink to="/" className="header-logo" aria-label={`${config.siteName}首页`}>
          <Logo name={config.siteName} />
        </PageLink>
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
          <SearchBox />
          <nav className="main-nav" aria-label="分类导航">
            {MAIN_CATEGORIES.map((name) => (
              <NavLink key={name} to={`/category/${name}`} className="nav-link">
                {name}
              </NavLink>
            ))}
            <NavLink to="/ranking" className="nav-link">
              排行榜
            </NavLink>
          </nav>
          <div className="header-account">
            {user ? (
              <>
                <PageLink to="/profile" className="button button-ghost">
                  个人中心
                </PageLink>
                <SignOutButton className="button button-ghost" />
              </>
            ) : (
              <PageLink to="/auth" className="button button-primary">
                登录/注册
              </PageLink>
            )}
          </div>
        </div>
      </div>
    </header>
  );
}
