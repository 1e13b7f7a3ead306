/**
 * `npm run admin -- <command>`: the operators' tool for the 管理后台 (docs/admin.md).
 *
 *   grant <email> [--role admin|moderator] [--remote] [--config wrangler.json]   give an account a role (admin by default)
 *   revoke <email> [--remote] [--config wrangler.json]                           take its role away (and its two-step enrolment)
 */
import { parseRoleCommand } from "./role-plan";
import { changeRole } from "./roles";

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseRoleCommand(argv);
  if (!parsed.ok) {
    console.error(parsed.message);
    return 2;
  }
  try {
    await changeRole(parsed.value);
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
