/**
 * Presence avatars for a screen, through the shared PresenceAvatars component when it is present in the
 * build (it is owned by the shell). The glob import resolves at build time to the module or to nothing,
 * so screens render either way.
 */
import { lazy, Suspense, type ComponentType } from "react";

const modules = import.meta.glob<{ PresenceAvatars?: ComponentType<{ path: string }>; default?: ComponentType<{ path: string }> }>("./PresenceAvatars.tsx");
const loader = modules["./PresenceAvatars.tsx"];

const NoAvatars: ComponentType<{ path: string }> = () => null;

const Avatars = loader
  ? lazy(async () => {
      const mod = await loader();
      return { default: mod.PresenceAvatars ?? mod.default ?? NoAvatars };
    })
  : null;

export function LivePresence({ path }: { path: string }) {
  if (!Avatars) return null;
  return (
    <Suspense fallback={null}>
      <Avatars path={path} />
    </Suspense>
  );
}
