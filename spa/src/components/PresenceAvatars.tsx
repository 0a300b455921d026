import { Avatar, Tooltip } from "@mantine/core";
import { usePresence } from "@/lib/presence";

/**
 * Who else is viewing this path right now (Mantine Avatar.Group with a tooltip per person).
 * Renders nothing when nobody else is here. Usage: `<PresenceAvatars path={location.pathname} />`.
 */
export function PresenceAvatars({ path, max = 4 }: { path: string; max?: number }) {
  const viewers = usePresence(path);
  if (viewers.length === 0) return null;
  const shown = viewers.slice(0, max);
  const rest = viewers.length - shown.length;
  return (
    <Tooltip.Group openDelay={700} closeDelay={300}>
      <Avatar.Group spacing="sm" aria-label={`Also viewing: ${viewers.map((v) => v.name).join(", ")}`} role="group">
        {shown.map((viewer) => (
          <Tooltip key={viewer.userId} label={`${viewer.name} is viewing`} withArrow>
            <Avatar size="sm" radius="xl" color="initials" name={viewer.name} aria-label={viewer.name}>
              {viewer.initials}
            </Avatar>
          </Tooltip>
        ))}
        {rest > 0 ? (
          <Tooltip
            label={viewers
              .slice(max)
              .map((v) => v.name)
              .join(", ")}
            withArrow
          >
            <Avatar size="sm" radius="xl" aria-label={`${rest} more`}>
              +{rest}
            </Avatar>
          </Tooltip>
        ) : null}
      </Avatar.Group>
    </Tooltip.Group>
  );
}
