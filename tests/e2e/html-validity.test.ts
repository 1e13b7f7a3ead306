import { execFile } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { HTML_SAMPLES } from "../route-samples";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseURL } from "./browser";
import { PASSWORD, uniqueEmail, uniqueIp } from "./visitors";

/**
 * The server-rendered HTML of every route (plain fetch, no JavaScript) passes
 * the Nu Html Checker (npm `vnu-jar`, run on the machine's Java) with zero
 * errors. One Java run checks all the files: the JVM is slow to start.
 */

const require = createRequire(import.meta.url);
/** `require("vnu-jar")` is a String object holding the path of vnu.jar. */
const VNU_JAR = String(require("vnu-jar") as string);

/** Every route and state whose first HTML a visitor can get (each declared route's samples, tests/route-samples.ts). */
const ROUTES = HTML_SAMPLES;

/**
 * Messages that are not errors in the current HTML standard but that vnu
 * still reports, by exact text. Each entry says why it is safe.
 */
const KNOWN_VNU_GAPS: ReadonlySet<string> = new Set<string>([]);

interface VnuMessage {
  type: string;
  subType?: string;
  url?: string;
  message: string;
  extract?: string;
  lastLine?: number;
  lastColumn?: number;
}

/** Not a route: the checker's self-test. */
const CANARY = "zz-canary.html";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "html-validity-"));
/** File name → the route it was fetched from. */
const files = new Map<string, string>();

function fileName(route: string, index: number): string {
  return `${String(index).padStart(2, "0")}-${route.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "") || "home"}.html`;
}

async function fetchHtml(route: string, headers: Record<string, string> = {}): Promise<{ status: number; html: string }> {
  const res = await fetch(baseURL() + route, { headers: { "Accept-Language": "zh-CN", ...headers }, redirect: "manual" });
  const type = res.headers.get("content-type") ?? "";
  const html = await res.text();
  if (!type.startsWith("text/html")) throw new Error(`${route} answered ${res.status} ${type}, not HTML`);
  return { status: res.status, html };
}

/**
 * Signs a fresh user up through the no-JavaScript form post (the embedded
 * account service confirms at once) and returns the session cookies, as a
 * visitor of its own (tests/e2e/visitors.ts: per-address limits never meet).
 */
async function signUpCookies(): Promise<string> {
  const email = uniqueEmail("vnu");
  const body = new URLSearchParams({ email, password: PASSWORD, confirmPassword: PASSWORD });
  const res = await fetch(baseURL() + "/api/auth/sign-up", {
    method: "POST",
    body,
    redirect: "manual",
    headers: { "CF-Connecting-IP": uniqueIp(), "Content-Type": "application/x-www-form-urlencoded" },
  });
  await res.arrayBuffer();
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (res.status !== 303 || cookies.length === 0) throw new Error(`sign-up answered ${res.status} → ${res.headers.get("location")} without a session`);
  return cookies.join("; ");
}

let messages: VnuMessage[] = [];

beforeAll(async () => {
  const pages: Array<{ route: string; html: string }> = [];
  for (const route of ROUTES) pages.push({ route, html: (await fetchHtml(route)).html });
  const cookie = await signUpCookies();
  const profile = await fetchHtml("/profile", { Cookie: cookie });
  if (profile.status !== 200) throw new Error(`/profile answered ${profile.status} for a signed-in user`);
  pages.push({ route: "/profile", html: profile.html });

  pages.forEach(({ route, html }, i) => {
    const name = fileName(route, i);
    fs.writeFileSync(path.join(dir, name), html);
    files.set(name, route);
  });
  // A page with one known error, to prove that the checker runs and reports (it must find exactly that one).
  fs.writeFileSync(
    path.join(dir, CANARY),
    '<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>x</title></head><body><span aria-label="x">x</span></body></html>',
  );
  const paths = [...files.keys(), CANARY].map((name) => path.join(dir, name));
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)("java", ["-Xss4m", "-jar", VNU_JAR, "--errors-only", "--format", "json", "--stdout", ...paths], {
      maxBuffer: 64 * 1024 * 1024,
    }));
  } catch (error) {
    // vnu exits 1 when it found errors: its JSON report is still on stdout
    const e = error as { stdout?: string; code?: number | string; stderr?: string };
    if (!e.stdout) throw new Error(`vnu did not run (is Java 11+ on the PATH?): ${e.code} ${e.stderr ?? ""}`);
    stdout = e.stdout;
  }
  messages = (JSON.parse(stdout) as { messages: VnuMessage[] }).messages;
}, 180_000);

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function routeOf(url: string | undefined): string {
  if (!url) return "?";
  const name = path.basename(new URL(url).pathname);
  return files.get(decodeURIComponent(name)) ?? name;
}

describe("Nu Html Checker on the server-rendered HTML", () => {
  it("checked every route, and the checker reports what it finds", () => {
    expect(files.size).toBe(ROUTES.length + 1);
    const canary = messages.filter((m) => m.url && path.basename(new URL(m.url).pathname) === CANARY);
    expect(canary.map((m) => m.message)).toEqual([expect.stringContaining("“aria-label” attribute must not be specified on any “span” element")]);
    // every other message names one of the fetched pages
    for (const m of messages) if (m.url && !canary.includes(m)) expect(files.has(path.basename(new URL(m.url).pathname))).toBe(true);
  });

  it("every page has zero errors", () => {
    const errors = messages
      .filter((m) => !(m.url && path.basename(new URL(m.url).pathname) === CANARY))
      .filter((m) => m.type === "error" || m.type === "non-document-error" || m.subType === "fatal")
      .filter((m) => !KNOWN_VNU_GAPS.has(m.message))
      .map((m) => `${routeOf(m.url)}:${m.lastLine ?? "?"}:${m.lastColumn ?? "?"} ${m.message}${m.extract ? `\n    ${m.extract.replace(/\n/g, " ")}` : ""}`);
    expect(errors).toEqual([]);
  });
});
