/**
 * The variables `npm run deploy` gives the worker (`wrangler deploy --var`), decided from
 * listings only (no I/O here): SITE_URL — the only origin links in account e-mails are built from
 * (worker/config.ts `mailLinkOrigin`) — and AUTH_AUTO_CONFIRM, which is turned off (e-mail
 * confirmation on) exactly when the live site has a way to send mail.
 */

/** What wrangler.toml says about the worker's variables and bindings (`readTomlSettings` reads it for scripts/deploy/main.ts). */
export interface TomlSettings {
  /** `[vars]`: names and values as written. */
  vars: Readonly<Record<string, string>>;
  /** Whether a `[[send_email]]` binding named EMAIL is declared. */
  emailBinding: boolean;
}

export interface SiteVarsInput {
  /** Names of the worker's secrets (empty for a new worker, or offline). */
  secrets: readonly string[];
  toml: TomlSettings;
  /** The site's address when known before deploying (--url, or the last deploy's), else null. */
  url: string | null;
}

export interface SiteVarsPlan {
  /** Variables to pass as `--var NAME:value` (those wrangler.toml sets itself are left to it). */
  vars: Record<string, string>;
  /** How the site sends mail ("none" when it cannot). */
  mail: "http" | "binding" | "supabase" | "none";
  /** What to print: every choice and what it means. */
  notes: string[];
}

/** How the live site would send account e-mail, from its secrets, vars and bindings. */
export function mailTransport({ secrets, toml }: Pick<SiteVarsInput, "secrets" | "toml">): SiteVarsPlan["mail"] {
  const has = (name: string) => secrets.includes(name) || Boolean(toml.vars[name]?.trim());
  if (has("SUPABASE_URL")) return "supabase";
  if (has("MAIL_API_URL") && has("MAIL_API_KEY") && has("MAIL_FROM")) return "http";
  if (toml.emailBinding && has("MAIL_FROM")) return "binding";
  return "none";
}

const FALSE_WORDS = ["0", "false", "no", "off"];

export function planSiteVars(input: SiteVarsInput): SiteVarsPlan {
  const vars: Record<string, string> = {};
  const notes: string[] = [];
  const { toml } = input;

  if (toml.vars.SITE_URL?.trim()) notes.push(`SITE_URL: ${toml.vars.SITE_URL.trim()} (wrangler.toml [vars]); links in account e-mails use it`);
  else if (input.url) {
    vars.SITE_URL = input.url;
    notes.push(`SITE_URL: ${input.url}; links in account e-mails use it`);
  } else notes.push("SITE_URL: set to the workers.dev address wrangler prints (a second, quick deploy); links in account e-mails use it");

  const mail = mailTransport(input);
  const explicit = toml.vars.AUTH_AUTO_CONFIRM?.trim().toLowerCase();
  const explicitOff = explicit !== undefined && FALSE_WORDS.includes(explicit);
  if (mail === "supabase") {
    notes.push(
      "accounts: a Supabase project (SUPABASE_URL) — its own settings decide e-mail confirmation and send the mail; " +
        "with 'Confirm email' on, sign-up answers alike for registered and new addresses",
    );
  } else if (explicit !== undefined) {
    if (explicitOff && mail === "none") {
      notes.push(
        "accounts: WARNING — AUTH_AUTO_CONFIRM=false (wrangler.toml) but the site has no way to send mail " +
          "(MAIL_API_URL, MAIL_API_KEY and MAIL_FROM secrets, or an EMAIL send_email binding and MAIL_FROM): " +
          "no one could confirm an account, so no sign-up can finish",
      );
    } else if (explicitOff) notes.push(`accounts: e-mail confirmation on (AUTH_AUTO_CONFIRM=false in wrangler.toml), mail through ${mail}`);
    else notes.push("accounts: AUTH_AUTO_CONFIRM is on (wrangler.toml): sign-up signs in at once, so it tells anyone whether an address is already registered");
  } else if (mail !== "none") {
    vars.AUTH_AUTO_CONFIRM = "false";
    notes.push(
      `accounts: e-mail confirmation on (AUTH_AUTO_CONFIRM=false), mail through ${mail === "http" ? "the MAIL_API_URL service" : "the EMAIL binding"}: ` +
        "sign-up answers alike for registered and new addresses; a new account signs in from the link in its mail",
    );
  } else {
    vars.AUTH_AUTO_CONFIRM = "true";
    notes.push(
      "accounts: NO WAY TO SEND MAIL — set the MAIL_API_URL, MAIL_API_KEY and MAIL_FROM secrets (or an EMAIL send_email binding and MAIL_FROM) and deploy again.",
      "  Until then AUTH_AUTO_CONFIRM stays true: sign-up signs in at once, which tells anyone whether an address is registered, and 忘记密码 mails cannot be sent.",
      "  Confirmation without mail is not an option: no one could confirm an account.",
    );
  }
  return { vars, mail, notes };
}

/**
 * The site's address for SITE_URL after a deploy: --url when given; else the last deploy's
 * address while wrangler still serves the worker there; else the first address it printed
 * (the workers.dev one).
 */
export function chooseSiteUrl(flagUrl: string | null, knownUrl: string | null, printedUrls: readonly string[]): string | null {
  if (flagUrl) return flagUrl;
  if (knownUrl && printedUrls.includes(knownUrl)) return knownUrl;
  return printedUrls[0] ?? null;
}

/** `[vars]` and whether `[[send_email]]` declares EMAIL, from wrangler.toml's text (the simple forms this repository uses). */
export function readTomlSettings(text: string): TomlSettings {
  const vars: Record<string, string> = {};
  let emailBinding = false;
  let table = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/^\s+|\s+$/g, "");
    if (!line || line.startsWith("#")) continue;
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(line);
    if (header) {
      table = header[1];
      continue;
    }
    const pair = /^([A-Za-z0-9_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|(true|false|-?\d+))\s*(?:#.*)?$/.exec(line);
    if (!pair) continue;
    const value = pair[2] ?? pair[3] ?? pair[4] ?? "";
    if (table === "vars") vars[pair[1]] = value;
    if (table === "send_email" && pair[1] === "name" && value === "EMAIL") emailBinding = true;
  }
  return { vars, emailBinding };
}
