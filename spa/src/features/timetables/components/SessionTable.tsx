import { Checkbox, Group, Tooltip } from "@mantine/core";
import { Tag } from "@/components/Tag";
import { useVirtualizer } from "@tanstack/react-virtual";
import { IconAlertTriangle } from "@tabler/icons-react";
import { DeleteAction, EditAction } from "@/components/ListPage";
import { memo, useRef } from "react";
import { displayTime, formatDate, hours, shortTime } from "@/components/Dates";
import { CONFLICT_LABELS, DAY_LABELS, HARD_CONFLICTS, STATUS_LABELS, type Session } from "../api/timetables";
import classes from "./SessionTable.module.css";

const ROW_HEIGHT = 56;
const STATUS_COLORS: Record<string, string> = { scheduled: "blue", confirmed: "green", cancelled: "gray", completed: "teal" };

/** What the sessions table and the phone's session cards show and do. */
interface SessionListProps {
  sessions: Session[];
  selected: Set<string>;
  onToggle: (id: string) => void;
  onEdit: (s: Session) => void;
  onDelete: (s: Session) => void;
  conflictMessages: Map<string, string[]>;
}

/** The virtualiser of a session list in its scrolling region (`parentRef`). */
function useSessionVirtualizer(count: number, estimate: number, overscan: number) {
  const parentRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => parentRef.current,
    estimateSize: () => estimate,
    overscan,
    useFlushSync: false,
  });
  return { parentRef, virtualizer };
}

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
}: SessionListProps & { onToggleAll: (checked: boolean) => void }) {
  const { parentRef, virtualizer } = useSessionVirtualizer(sessions.length, ROW_HEIGHT, 6);
  const items = virtualizer.getVirtualItems();
  const paddingTop = items.length ? items[0].start : 0;
  const paddingBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const selectable = sessions.filter((s) => s.status !== "cancelled");
  const allChecked = selectable.length > 0 && selectable.every((s) => selected.has(s.id));
  const someChecked = selectable.some((s) => selected.has(s.id));

  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a scrolling region (sized by the virtualiser) takes focus so keyboard users can scroll it (axe: scrollable-region-focusable)
    <div ref={parentRef} className={classes.scroller} data-testid="sessions-scroller" tabIndex={0} role="region" aria-label="Timetable sessions">
      <table className={classes.table} aria-rowcount={sessions.length + 1}>
        <thead className={classes.head}>
          <tr>
            <th className={classes.check}>
              <Checkbox
                aria-label="Select all sessions"
                checked={allChecked}
                indeterminate={someChecked && !allChecked}
                onChange={(e) => onToggleAll(e.currentTarget.checked)}
              />
            </th>
            <th>Date</th>
            <th>Time</th>
            <th>Unit</th>
            <th>Block Group</th>
            <th>Teacher</th>
            <th>Room</th>
            <th>Status</th>
            <th>Conflicts</th>
            <th>
              <span className={classes.srOnly}>Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {paddingTop > 0 ? (
            // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row of the virtualised table; nothing in it can take focus
            <tr aria-hidden="true">
              <td colSpan={10} style={{ height: paddingTop, padding: 0, border: 0 }} />
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
            // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row of the virtualised table; nothing in it can take focus
            <tr aria-hidden="true">
              <td colSpan={10} style={{ height: paddingBottom, padding: 0, border: 0 }} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

/** The status badge, never truncated (dense screens). */
export function SessionStatus({ status }: { status: string }) {
  return (
    <Tag size="sm" color={STATUS_COLORS[status] ?? "gray"} tt="none" style={{ overflow: "visible" }} styles={{ label: { overflow: "visible" } }}>
      {STATUS_LABELS[status] ?? status}
    </Tag>
  );
}

/** A session's conflict badges with the engine's message on hover, never truncated. */
export function Conflicts({ s, messages = [] }: { s: Session; messages?: string[] }) {
  return (
    <Group gap={4}>
      {(s.conflicts ?? []).map((type) => (
        <Tooltip key={type} label={messages.find(Boolean) ?? CONFLICT_LABELS[type] ?? type} multiline w={280}>
          <Tag
            size="sm"
            tt="none"
            color={HARD_CONFLICTS.has(type) ? "red" : "yellow"}
            leftSection={<IconAlertTriangle size={12} />}
            data-testid="conflict-badge"
            style={{ overflow: "visible", maxWidth: "none" }}
            styles={{ label: { overflow: "visible" } }}
          >
            {CONFLICT_LABELS[type] ?? type}
          </Tag>
        </Tooltip>
      ))}
    </Group>
  );
}

/** Who teaches a session, or "Unassigned". */
const teacherOf = (s: Session) => (s.teacher ? s.teacher.name || `${s.teacher.firstName} ${s.teacher.lastName}` : "Unassigned");
/** A session's room: none for a cancelled one (a holiday). */
const roomOf = (s: Session) => (s.status === "cancelled" ? "N/A" : s.room || "-");

/** A session's selection box (none for a cancelled session), named by unit, date and start. */
function SessionCheckbox({ s, checked, onToggle }: { s: Session; checked: boolean; onToggle: (id: string) => void }) {
  return (
    <input
      type="checkbox"
      className={classes.box}
      aria-label={`Select session ${s.unit.code} ${s.actualDate} ${shortTime(s.startTime)}`}
      checked={checked}
      onChange={() => onToggle(s.id)}
    />
  );
}

/** A session's Edit and Delete buttons. */
function SessionActions({ s, onEdit, onDelete }: { s: Session; onEdit: (s: Session) => void; onDelete: (s: Session) => void }) {
  return (
    <Group gap={4} wrap="nowrap">
      <EditAction variant="subtle" label={`Edit session ${s.unit.code} ${s.actualDate}`} onClick={() => onEdit(s)} />
      <DeleteAction variant="subtle" label={`Delete session ${s.unit.code} ${s.actualDate}`} onClick={() => onDelete(s)} />
    </Group>
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
    <tr
      data-index={index}
      aria-rowindex={index + 2}
      className={cancelled ? classes.cancelled : undefined}
      data-testid="session-row"
      style={{ height: ROW_HEIGHT }}
    >
      <td className={classes.check}>{cancelled ? null : <SessionCheckbox s={s} checked={checked} onToggle={onToggle} />}</td>
      <td className={classes.nowrap}>
        <div>{formatDate(s.actualDate)}</div>
        <div className={classes.sub}>
          {DAY_LABELS[s.dayOfWeek] ?? ""} · Week {s.weekNumber}
        </div>
      </td>
      <td className={classes.nowrap}>
        <span className={cancelled ? classes.struck : undefined} data-testid="session-time">
          {time}
        </span>
        <div className={classes.sub}>{hours(s.actualHours)} h</div>
      </td>
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
      <td>{teacherOf(s)}</td>
      <td>{roomOf(s)}</td>
      <td className={classes.nowrap}>
        <SessionStatus status={s.status} />
      </td>
      <td className={classes.conflicts}>
        <Conflicts s={s} messages={messages} />
      </td>
      <td>
        <SessionActions s={s} onEdit={onEdit} onDelete={onDelete} />
      </td>
    </tr>
  );
});

const CARD_HEIGHT = 150;

/**
 * The sessions as stacked cards for a phone (at 390 px the timetable reads as cards, not a table
 * scrolled sideways). Virtualised like the table; each card is measured, so cards of any height stack.
 */
export function SessionCards({ sessions, selected, onToggle, onEdit, onDelete, conflictMessages }: SessionListProps) {
  const { parentRef, virtualizer } = useSessionVirtualizer(sessions.length, CARD_HEIGHT, 4);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a scrolling region (sized by the virtualiser) takes focus so keyboard users can scroll it (axe: scrollable-region-focusable)
    <div ref={parentRef} className={classes.scroller} data-testid="sessions-scroller" tabIndex={0} role="region" aria-label="Timetable sessions">
      {/* biome-ignore lint/a11y/useSemanticElements: the virtualised cards are absolutely placed divs with list roles */}
      <div style={{ height: virtualizer.getTotalSize(), position: "relative" }} role="list">
        {virtualizer.getVirtualItems().map((item) => {
          const s = sessions[item.index];
          const cancelled = s.status === "cancelled";
          return (
            // biome-ignore lint/a11y/useSemanticElements: an absolutely placed card of the virtualised list above
            <div
              key={s.id}
              ref={virtualizer.measureElement}
              data-index={item.index}
              role="listitem"
              data-testid="session-row"
              className={`${classes.card} ${cancelled ? classes.cancelled : ""}`}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  {cancelled ? null : <SessionCheckbox s={s} checked={selected.has(s.id)} onToggle={onToggle} />}
                  <div>
                    <strong>{formatDate(s.actualDate)}</strong>{" "}
                    <span className={cancelled ? classes.struck : undefined} data-testid="session-time">
                      {displayTime(s.startTime)} - {displayTime(s.endTime)}
                    </span>
                    <div className={classes.sub}>
                      {DAY_LABELS[s.dayOfWeek] ?? ""} · Week {s.weekNumber} · {hours(s.actualHours)} h
                    </div>
                  </div>
                </Group>
                <SessionStatus status={s.status} />
              </Group>
              <div className={classes.cardBody}>
                {cancelled ? (
                  <strong>Holiday/Term Break</strong>
                ) : (
                  <>
                    <strong>{s.unit.code}</strong> {s.unit.name}
                  </>
                )}
                <div className={classes.sub}>
                  {s.blockGroup.code} · {teacherOf(s)} · {roomOf(s)}
                </div>
              </div>
              <Group justify="space-between" wrap="nowrap" align="flex-end">
                <Conflicts s={s} messages={conflictMessages.get(s.id)} />
                <SessionActions s={s} onEdit={onEdit} onDelete={onDelete} />
              </Group>
            </div>
          );
        })}
      </div>
    </div>
  );
}
