import { ActionIcon, Checkbox, Group, Tooltip } from "@mantine/core";
import { Tag } from "../../../components/Tag";
import { useVirtualizer } from "@tanstack/react-virtual";
import { IconAlertTriangle, IconEdit, IconTrash } from "@tabler/icons-react";
import { memo, useRef } from "react";
import { displayTime, formatDate, hours, shortTime } from "../../../components/Dates";
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
  const virtualizer = useVirtualizer({ count: sessions.length, getScrollElement: () => parentRef.current, estimateSize: () => ROW_HEIGHT, overscan: 6, useFlushSync: false });
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
            return (
              <SessionRow
                key={s.id}
                s={s}
                index={item.index}
                checked={selected.has(s.id)}
                messages={conflictMessages.get(s.id)}
                onToggle={onToggle}
                onEdit={onEdit}
                onDelete={onDelete}
              />
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

/** One row; memoised so that scrolling renders only the rows that come into view. */
const SessionRow = memo(function SessionRow({
  s,
  index,
  checked,
  messages = [],
  onToggle,
  onEdit,
  onDelete,
}: {
  s: Session;
  index: number;
  checked: boolean;
  messages?: string[];
  onToggle: (id: string) => void;
  onEdit: (s: Session) => void;
  onDelete: (s: Session) => void;
}) {
  const cancelled = s.status === "cancelled";
  const time = `${displayTime(s.startTime)} - ${displayTime(s.endTime)}`;
  return (
    <tr data-index={index} aria-rowindex={index + 2} className={cancelled ? classes.cancelled : undefined} data-testid="session-row" style={{ height: ROW_HEIGHT }}>
      <td className={classes.check}>
        {cancelled ? null : (
          <input
            type="checkbox"
            className={classes.box}
            aria-label={`Select session ${s.unit.code} ${s.actualDate} ${shortTime(s.startTime)}`}
            checked={checked}
            onChange={() => onToggle(s.id)}
          />
        )}
      </td>
      <td>
        <div>{formatDate(s.actualDate)}</div>
        <div className={classes.sub}>{DAY_LABELS[s.dayOfWeek] ?? ""}</div>
      </td>
      <td>
        <span className={cancelled ? classes.struck : undefined} data-testid="session-time">
          {time}
        </span>
      </td>
      <td>{s.weekNumber}</td>
      <td>
        {cancelled ? (
          <strong>Holiday/Term Break</strong>
        ) : (
          <>
            <strong>{s.unit.code}</strong>
            <div className={classes.sub}>{s.unit.name}</div>
          </>
        )}
      </td>
      <td>{s.blockGroup.code}</td>
      <td>{s.teacher ? s.teacher.name || `${s.teacher.firstName} ${s.teacher.lastName}` : "Unassigned"}</td>
      <td>{cancelled ? "N/A" : s.room || "-"}</td>
      <td>
        <Tag size="sm" color={STATUS_COLORS[s.status] ?? "gray"}>
          {STATUS_LABELS[s.status] ?? s.status}
        </Tag>
      </td>
      <td>{hours(s.actualHours)}</td>
      <td>
        <Group gap={4}>
          {(s.conflicts ?? []).map((type) => (
            <Tooltip key={type} label={messages.find(Boolean) ?? CONFLICT_LABELS[type] ?? type} multiline w={280}>
              <Tag size="sm" color={HARD_CONFLICTS.has(type) ? "red" : "yellow"} leftSection={<IconAlertTriangle size={12} />} data-testid="conflict-badge">
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
});
