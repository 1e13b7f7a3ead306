// 视频管理 words a bad field exactly as `npm run catalogue -- check` does: the schema's Chinese
// message (shared/catalogue/schema.ts), after the field's Chinese name, in the form page and in
// the JSON refusal — never the English of a validation library.
import { beforeAll, describe, expect, it } from "vitest";
import { validateCatalogue } from "../../shared/catalogue/schema";
import { enrolledHolder, post, type RoleHolder } from "./helpers/admin";
import { BASE, call } from "./helpers/visitor";

const ENTRY = {
  id: "video_9171",
  title: "校验消息测试",
  description: "坏字段的中文提示。",
  category: ["电影"],
  tags: [],
  year: 2024,
  rating: 11,
  duration: "01:30:00",
  coverImage: "9171.webp",
  videoFile: "9171.mp4",
};

/** The message `npm run catalogue -- check` prints for the same entry and field. */
function checkMessage(entry: Record<string, unknown>, field: string): string {
  const result = validateCatalogue([entry]);
  if (result.ok) throw new Error("the entry should be refused");
  const problem = result.problems.find((p) => p.field === field);
  if (!problem) throw new Error(`no problem for ${field}`);
  return problem.message;
}

let admin: RoleHolder;

beforeAll(async () => {
  admin = await enrolledHolder("admin", "title-messages");
});

describe("a bad field in 视频管理", () => {
  it("the JSON refusal carries the check's Chinese message after the field's name", async () => {
    const message = checkMessage(ENTRY, "rating");
    expect(message).toBe("不能大于10");
    const res = await post("/api/admin/titles", admin.jar, { entry: ENTRY });
    expect(res.status).toBe(400);
    const { error } = await res.json<{ error: { code: string; problems: string[] } }>();
    expect(error.code).toBe("invalid_entry");
    expect(error.problems).toEqual([`「评分」（rating）: ${message}`]);
  });

  it("the form page shows the same words, and no English message", async () => {
    const fields = {
      id: "video_9172",
      title: "校验消息测试",
      description: "坏字段的中文提示。",
      category: "电影",
      tags: "",
      year: "2024",
      rating: "8",
      duration: "90分钟",
      videoFile: "9172.mp4",
      coverImage: "9172.webp",
      state: "draft",
    };
    const message = checkMessage({ ...ENTRY, id: "video_9172", rating: 8, duration: "90分钟", coverImage: "9172.webp", videoFile: "9172.mp4" }, "duration");
    expect(message).toBe('格式应为 "02:08:40" 或 "45:00"');
    const res = await call("POST", "/admin/titles/new", { jar: admin.jar, form: fields, headers: { Origin: BASE } });
    expect(res.status).toBe(400);
    const page = await res.text();
    expect(page).toContain("「时长」（duration）: 格式应为 &quot;02:08:40&quot; 或 &quot;45:00&quot;");
    expect(page).not.toMatch(/must (?:look|be)/);
  });
});
