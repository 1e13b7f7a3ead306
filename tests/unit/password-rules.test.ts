// The one password rule (shared/password-rules.ts) and the form checks built on it (shared/auth-messages.ts).
import { describe, expect, it } from "vitest";
import { PASSWORD_TOO_LONG, PASSWORD_TOO_SHORT, PASSWORD_MISMATCH, signUpProblem, validateSignUp } from "../../shared/auth-messages";
import { isPasswordTooLong, isPasswordTooShort, passwordBytes, passwordCharacters } from "../../shared/password-rules";

describe("password rule", () => {
  it("counts characters as code points: six CJK characters or six emoji are six", () => {
    expect(passwordCharacters("密码密码密码")).toBe(6);
    expect(passwordCharacters("🙂🙂🙂🙂🙂🙂")).toBe(6);
    expect("🙂🙂🙂".length).toBe(6); // UTF-16 units would count three emoji as six
    expect(isPasswordTooShort("🙂🙂🙂")).toBe(true);
    expect(isPasswordTooShort("密码密码密码")).toBe(false);
    expect(isPasswordTooShort("12345")).toBe(true);
    expect(isPasswordTooShort("123456")).toBe(false);
  });

  it("allows at most 72 UTF-8 bytes", () => {
    expect(passwordBytes("密")).toBe(3);
    expect(isPasswordTooLong("a".repeat(72))).toBe(false);
    expect(isPasswordTooLong("a".repeat(73))).toBe(true);
    expect(isPasswordTooLong("密".repeat(24))).toBe(false);
    expect(isPasswordTooLong("密".repeat(25))).toBe(true);
  });

  it("the form checks use it, in the spec's order (mismatch first)", () => {
    expect(validateSignUp("123456", "123457")).toBe(PASSWORD_MISMATCH);
    expect(validateSignUp("🙂🙂🙂", "🙂🙂🙂")).toBe(PASSWORD_TOO_SHORT);
    expect(validateSignUp("密".repeat(25), "密".repeat(25))).toBe(PASSWORD_TOO_LONG);
    expect(validateSignUp("密码密码密码", "密码密码密码")).toBeNull();
    expect(signUpProblem("abc", "abd")).toBe("password_mismatch");
    expect(signUpProblem("abc", "abc")).toBe("weak_password");
    expect(signUpProblem("a".repeat(80), "a".repeat(80))).toBe("password_too_long");
    expect(signUpProblem("abcdef", "abcdef")).toBeNull();
  });
});
