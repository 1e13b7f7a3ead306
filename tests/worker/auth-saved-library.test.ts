// PUT /api/auth/user saves the signed-in visitor's library (inside workerd), and the signed-in
// page's root data carries it.
import { describe, expect, it } from "vitest";
import { call, signUp } from "./helpers/visitor";
import { type UserBody, type ErrorBody, json } from "./helpers/auth-api";

// ---- saved library -------------------------------------------------------------------------

describe("PUT /api/auth/user saves the library", () => {
  it("saves, drops unknown ids, returns it on GET; signed out → 401", async () => {
    const { jar } = await signUp("library");
    const put = await call("PUT", "/api/auth/user", {
      jar,
      json: {
        data: {
          library: {
            favourites: ["video_001", "video_999", "nope", 7, "video_001"],
            history: [
              { id: "video_002", position: 30, duration: 120, updatedAt: 1000 },
              { id: "video_404", position: 1, duration: 2, updatedAt: 2000 },
            ],
          },
          role: "admin",
        },
      },
    });
    expect(put.status).toBe(200);
    expect(put.headers.get("Cache-Control")).toBe("private, no-store");
    const saved = await json<UserBody>(put);
    expect(saved.library).toEqual({ favourites: ["video_001"], history: [{ id: "video_002", position: 30, duration: 120, updatedAt: 1000 }] });

    const got = await json<UserBody>(await call("GET", "/api/auth/user", { jar }));
    expect(got.library).toEqual(saved.library);

    const simple = await call("PUT", "/api/auth/user", { jar, json: { data: { library: { favourites: ["video_001"], history: [] } } } });
    expect(simple.status).toBe(200);
    expect((await json<UserBody>(await call("GET", "/api/auth/user", { jar }))).library).toEqual({ favourites: ["video_001"], history: [] });

    const anon = await call("PUT", "/api/auth/user", { json: { data: { library: { favourites: ["video_001"], history: [] } } } });
    expect(anon.status).toBe(401);
    expect((await json<ErrorBody>(anon)).error.code).toBe("not_signed_in");
  });

  it("the saved library reaches the signed-in page's root data", async () => {
    const { jar } = await signUp("library-page");
    await call("PUT", "/api/auth/user", { jar, json: { data: { library: { favourites: ["video_003"], history: [] } } } });
    const html = await (await call("GET", "/profile", { jar })).text();
    expect(html).toContain('"favourites":["video_003"]');
  });
});
