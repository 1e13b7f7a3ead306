import type { ReactNode } from "react";
import { Outlet } from "../router";
import { Footer } from "./Footer";
import { Header } from "./Header";

/** Decorative floating circles: pure CSS, behind everything, no layout impact. */
function FloatingCircles() {
  return (
    <div className="floating-circles" aria-hidden="true">
      <span />
      <span />
      <span />
      <span />
      <span />
    </div>
  );
}

/** Header, page, footer and the background around every route. */
export function Layout({ children }: { children?: ReactNode }) {
  return (
    <>
      <a href="#main" className="skip-link">
        跳到主要内容
      </a>
      <FloatingCircles />
      <Header />
      <main id="main" className="site-main" tabIndex={-1}>
        {children ?? <Outlet />}
      </main>
      <Footer />
    </>
  );
}
