/** What the timetables screen mounts: the suggestion button and dialog, and the ranked teachers. */
export { SuggestAllocationButton, type SuggestAllocationButtonProps } from "./SuggestAllocationButton";
export { SuggestAllocationDialog, type SuggestAllocationDialogProps } from "./SuggestAllocationDialog";
export { TeacherRecommendations, type TeacherRecommendationsProps } from "./TeacherRecommendations";
export type { AllocationScope, Proposal, Recommendation } from "./api";
