import { ActionIcon, Checkbox, Group, Text, Tooltip } from "@mantine/core";
import { Tag } from "../../../components/Tag";
import { useVirtualizer } from "@tanstack/react-virtual";
import { IconAlertTriangle, IconEdit, IconTrash } from "@tabler/icons-react";
import { useRef } from "react";
import { formatDate, hours, shortTime } from "../../../components/Dates";
import { CONFLICT_LABELS, DAY_LABELS, HARD_CONFLICTS, STATUS_LABELS, type Session } from "../api/timetables";
import classes from "./SessionTable.module.css";

const ROW_HEIGHT = 56;
const STATUS_COLORS: Record<string, string> = { scheduled: "blue", confirmed: "green", cancelled: "gray", completed: "teal" };

/**
 * The sessions table, virtualised with @tanstack/react-virtual so 5,000 rows stay smooth: only the rows
 * in view (plus overscan) are in the DOM; spacer rows keep the scroll height.
 */
export function SessionTable({
  sessions,
  selected,
  onToggle,
  onToggleAll,
  onEdit,
  onDelete,
  conflictMessages,
}: {
  sessions: Session[];
  selected: Set<string>;
  onToggle: (id: string) => void;
  onToggleAll: (checked: boolean) => void;
  onEdit: (s: Session) => void;
  onDelete: (s: Session) => void;
  conflictMessages: Map<string, string[]>;
}) {
  const parentRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: sessions.length, getScrollElement: () => parentRef.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  const paddingTop = items.length ? items[0].start : 0;
  const paddingBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const selectable = sessions.filter((s) => s.status !== "cancelled");
  const allChecked = selectable.length > 0 && selectable.every((s) => selected.has(s.id));
  const someChecked = selectable.some((s) => selected.has(s.id));

  return (
    <div ref={parentRef} className={classes.scroller} data-testid="sessions-scroller" tabIndex={0} role="region" aria-label="Timetable sessions">
      <table className={classes.table} aria-rowcount={sessions.length + 1}>
        <thead className={classes.head}>
          <tr>
            <th className={classes.check}>
              <Checkbox aria-label="Select all sessions" checked={allChecked} indeterminate={someChecked && !allChecked} onChange={(e) => onToggleAll(e.currentTarget.checked)} />
            </th>
            <th>Date</th>
            <th>Time</th>
            <th>Week</th>
            <th>Unit</th>
            <th>Block Group</th>
            <th>Teacher</th>
            <th>Room</th>
            <th>Status</th>
            <th>Hours</th>
            <th>Conflicts</th>
            <th>
              <span className={classes.srOnly}>Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {paddingTop > 0 ? (
            <tr aria-hidden="true">
              <td colSpan={12} style={{ height: paddingTop, padding: 0, border: 0 }} />
            </tr>
          ) : null}
          {items.map((item) => {
            const s = sessions[item.index];
            const cancelled = s.status === "cancelled";
            const messages = conflictMessages.get(s.id) ?? [];
            return (
              <tr key={s.id} data-index={item.index} aria-rowindex={item.index + 2} className={cancelled ? classes.cancelled : undefined} data-testid="session-row" style={{ height: ROW_HEIGHT }}>
                <td className={classes.check}>
                  {cancelled ? null : <Checkbox aria-label={`Select session ${s.unit.code} ${s.actualDate} ${shortTime(s.startTime)}`} checked={selected.has(s.id)} onChange={() => onToggle(s.id)} />}
                </td>
                <td>
                  <Text size="sm">{formatDate(s.actualDate)}</Text>
                  <Text size="xs" c="dimmed">
                    {DAY_LABELS[s.dayOfWeek] ?? ""}
                  </Text>
                </td>
                <td>
                  <Text size="sm" td={cancelled ? "line-through" : undefined} data-testid="session-time">
                    {shortTime(s.startTime)} - {shortTime(s.endTime)}
                  </Text>
                </td>
                <td>{s.weekNumber}</td>
                <td>
                  {cancelled ? (
                    <Text size="sm" fw={600}>
                      Holiday/Term Break
                    </Text>
                  ) : (
                    <>
                      <Text size="sm" fw={600}>
                        {s.unit.code}
                      </Text>
                      <Text size="xs" c="dimmed" lineClamp={1}>
                        {s.unit.name}
                      </Text>
                    </>
                  )}
                </td>
                <td>
                  <Text size="sm">{s.blockGroup.code}</Text>
                </td>
                <td>
                  <Text size="sm" c={s.teacher ? undefined : "dimmed"}>
                    {s.teacher ? s.teacher.name || `${s.teacher.firstName} ${s.teacher.lastName}` : "Unassigned"}
                  </Text>
                </td>
                <td>{cancelled ? "N/A" : s.room || "-"}</td>
                <td>
                  <Tag size="sm" variant="light" color={STATUS_COLORS[s.status] ?? "gray"}>
                    {STATUS_LABELS[s.status] ?? s.status}
                  </Tag>
                </td>
                <td>{hours(s.actualHours)}</td>
                <td>
                  <Group gap={4}>
                    {(s.conflicts ?? []).map((type) => (
                      <Tooltip key={type} label={messages.find(Boolean) ?? CONFLICT_LABELS[type] ?? type} multiline w={280}>
                        <Tag size="sm" color={HARD_CONFLICTS.has(type) ? "red" : "yellow"} variant="light" leftSection={<IconAlertTriangle size={12} />} data-testid="conflict-badge">
                          {CONFLICT_LABELS[type] ?? type}
                        </Tag>
                      </Tooltip>
                    ))}
                  </Group>
                </td>
                <td>
                  <Group gap={4} wrap="nowrap">
                    <ActionIcon variant="subtle" aria-label={`Edit session ${s.unit.code} ${s.actualDate}`} onClick={() => onEdit(s)}>
                      <IconEdit size={16} />
                    </ActionIcon>
                    <ActionIcon variant="subtle" color="red" aria-label={`Delete session ${s.unit.code} ${s.actualDate}`} onClick={() => onDelete(s)}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                </td>
              </tr>
            );
          })}
          {paddingBottom > 0 ? (
            <tr aria-hidden="true">
              <td colSpan={12} style={{ height: paddingBottom, padding: 0, border: 0 }} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
