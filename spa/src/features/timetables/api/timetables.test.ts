import { END_AFTER_START } from "@/lib/times";
import { sessionSchema } from "./timetables";

describe("session form schema", () => {
  it("takes times typed as HH:MM, sends HH:MM:SS and refuses an end not after the start with the server's message", () => {
    const session = {
      blockGroupId: "g",
      unitId: "u",
      teacherId: "",
      yearLevel: 1,
      weekNumber: 1,
      dayOfWeek: 1,
      room: "",
      actualHours: 3,
      status: "scheduled",
      notes: "",
    };
    expect(sessionSchema.safeParse({ ...session, startTime: "12:00", endTime: "09:00" }).error!.issues).toEqual([
      expect.objectContaining({ path: ["endTime"], message: END_AFTER_START }),
    ]);
    expect(sessionSchema.parse({ ...session, startTime: "9:30", endTime: "12:00" })).toMatchObject({ startTime: "09:30:00", endTime: "12:00:00" });
  });
});
