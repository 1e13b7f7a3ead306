import { describe, expect, it } from "vitest";
import { librarySyncStep } from "../../shared/library";

describe("librarySyncStep: whose account the browser's library may go into", () => {
  it("a library collected while signed out, or this account's own, is merged", () => {
    expect(librarySyncStep(null, "user-a")).toBe("merge");
    expect(librarySyncStep("user-a", "user-a")).toBe("merge");
  });

  it("another account's library is never pushed into the one now signed in: the account's own replaces it", () => {
    expect(librarySyncStep("victim", "attacker")).toBe("adopt");
  });
});
