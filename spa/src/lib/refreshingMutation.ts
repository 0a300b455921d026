import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";

/**
 * A mutation of the API hooks (save, delete, assign...) that refreshes whole areas of the cache: once it
 * settles, saved or failed, every query under each of `areas` (roots of queryKeys) is invalidated, so
 * lists and records show the change (or the record as the server has it after a failure). With
 * `refreshOn: "success"` only a success refreshes.
 */
export function useRefreshingMutation<V, R>(
  areas: readonly QueryKey[],
  mutationFn: (variables: V) => Promise<R>,
  refreshOn: "settled" | "success" = "settled",
) {
  const qc = useQueryClient();
  const refresh = () => Promise.all(areas.map((queryKey) => qc.invalidateQueries({ queryKey })));
  return useMutation(refreshOn === "success" ? { mutationFn, onSuccess: refresh } : { mutationFn, onSettled: refresh });
}
