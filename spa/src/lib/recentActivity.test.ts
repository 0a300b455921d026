import { describe, expect, it } from "vitest";
import { rememberActivity, takeRecentActivity } from "./recentActivity";

const answer = (id?: string) => new Response(null, { status: 200, headers: id ? { "X-Activity-Id": id } : {} });

describe("the activity of the write just made (ADR 0011)", () => {
  it("is taken once, by the first success toast", () => {
    rememberActivity(answer("a1"));
    expect(takeRecentActivity()).toBe("a1");
    expect(takeRecentActivity()).toBeNull();
  });
  it("expires: a toast seconds later does not offer to undo an older write", () => {
    rememberActivity(answer("a2"));
    expect(takeRecentActivity(Date.now() + 5000)).toBeNull();
  });
  it("answers without the header change nothing", () => {
    rememberActivity(answer("a3"));
    rememberActivity(answer());
    expect(takeRecentActivity()).toBe("a3");
  });
});
