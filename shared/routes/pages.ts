// Every page of the site, one line each: a new shared/routes/{id}.route.ts is listed here
// (shared/routes/site-routes.ts reads this list).
export { default as home } from "./home.route";
export { default as listing } from "./listing.route";
export { default as ranking } from "./ranking.route";
export { default as schedule } from "./schedule.route";
export { default as search } from "./search.route";
export { default as video } from "./video.route";
export { default as info } from "./info.route";
export { default as auth } from "./auth.route";
export { default as resetPassword } from "./reset-password.route";
export { default as confirmLink } from "./confirm-link.route";
export { default as profile } from "./profile.route";
export { default as library } from "./library.route";
export { default as notFound } from "./not-found.route";
