import type { RouteDeclaration, RouteSamples } from "./declare";

/** The detail page: the player (episode 1, or the episode in the URL), details, related titles. */
export default {
  id: "video",
  page: () => import("../pages/VideoPage").then((m) => m.VideoPage),
  data: { "video/:id": "video", "video/:id/:episode": "video" },
  html: "edge",
  player: true,
} satisfies RouteDeclaration;

export const samples: RouteSamples = { pages: ["/video/video_001", "/video/video_003/2"], missing: { video: ["/video/video_999", "/video/video_003/99"] } };
