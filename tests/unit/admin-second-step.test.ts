import { describe, expect, it } from "vitest";
import {
  codesLocked,
  CODE_FAILURE_LIMIT,
  parseEnteredCode,
  RECOVERY_ALPHABET,
  recoveryCodeFrom,
  secondStepFresh,
  SECOND_STEP_TTL_MS,
} from "../../shared/admin/second-step";

describe("second-step rules", () => {
  it("6 digits are a TOTP code, 10 characters of the alphabet a recovery code; spaces and dashes are ignored", () => {
    expect(parseEnteredCode(" 123 456 ")).toEqual({ kind: "totp", code: "123456" });
    expect(parseEnteredCode("abcde-fghjk")).toEqual({ kind: "recovery", code: "ABCDEFGHJK" });
    for (const bad of ["12345", "1234567", "ABCDE-FGHJ0", "", null, 123456, "ABCDEFGHIJ"]) expect(parseEnteredCode(bad)).toBeNull();
  });

  it("recovery codes: XXXXX-XXXXX from the alphabet, unbiased (bytes past the last full round are skipped)", () => {
    let calls = 0;
    const code = recoveryCodeFrom((n) => {
      calls++;
      return new Uint8Array(n).fill(calls === 1 ? 255 : 0);
    });
    expect(code).toBe(`${RECOVERY_ALPHABET[0].repeat(5)}-${RECOVERY_ALPHABET[0].repeat(5)}`);
    expect(calls).toBe(2);
    const random = recoveryCodeFrom((n) => crypto.getRandomValues(new Uint8Array(n)));
    expect(random).toMatch(/^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/);
    expect(parseEnteredCode(random)?.kind).toBe("recovery");
  });

  it("a session stays verified for 12 hours, not a millisecond more", () => {
    expect(secondStepFresh(null, 1000)).toBe(false);
    expect(secondStepFresh(0, SECOND_STEP_TTL_MS - 1)).toBe(true);
    expect(secondStepFresh(0, SECOND_STEP_TTL_MS)).toBe(false);
    expect(secondStepFresh(5000, 1000)).toBe(false);
  });

  it("the fifth wrong code locks", () => {
    expect(codesLocked(CODE_FAILURE_LIMIT - 1)).toBe(false);
    expect(codesLocked(CODE_FAILURE_LIMIT)).toBe(true);
  });
});
