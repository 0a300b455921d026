/**
 * The route table of docs/behaviour/screens.md §1. Screens load lazily per feature folder.
 * Guards: RequireAuth ('Loading...' while the user loads, redirect to /auth when signed out, opens the
 * live-update socket), RequireAdmin (the Access Denied screen), RedirectIfSignedIn (/auth, /setup, /first-time).
 */
import { lazy, Suspense, type ReactNode } from "react";
import { createBrowserRouter } from "react-router";
import { FullPageLoader } from "@/components/States";
import { AppLayout } from "./AppLayout";
import { NotFoundPage, ORGANIZATION_DENIED_TEXT, RedirectIfSignedIn, RequireAdmin, RequireAuth } from "./guards";
import { RouteError } from "./RouteError";
import { installUnauthorizedHandler } from "./session";
import { openReplanReview } from "@/features/replan/openReplan";
import { provideReplanReview } from "@/lib/replan";

const page = (loader: () => Promise<{ default: React.ComponentType }>) => {
  const Component = lazy(loader);
  return (
    <Suspense fallback={<FullPageLoader />}>
      <Component />
    </Suspense>
  );
};

const SignIn = () => page(() => import("@/features/auth/SignInPage"));
const FirstTime = () => page(() => import("@/features/auth/FirstTimeSetupPage"));

const guarded = (node: ReactNode) => <RequireAdmin>{node}</RequireAdmin>;

export const router = createBrowserRouter([
  { path: "/auth", element: <RedirectIfSignedIn>{SignIn()}</RedirectIfSignedIn> },
  { path: "/setup", element: <RedirectIfSignedIn>{FirstTime()}</RedirectIfSignedIn> },
  // The invitation link an admin sends (ADR 0005): /auth/setup?token=...
  { path: "/auth/setup", element: <RedirectIfSignedIn>{FirstTime()}</RedirectIfSignedIn> },
  { path: "/first-time", element: <RedirectIfSignedIn>{FirstTime()}</RedirectIfSignedIn> },
  { path: "/display/:token", element: page(() => import("@/features/display/DisplayBoardPage")) },
  {
    element: (
      <RequireAuth>
        <AppLayout />
      </RequireAuth>
    ),
    children: [
      {
        // Errors of a screen (a chunk that cannot load offline or after a deploy, a render error) show
        // inside the shell with Retry (RouteError), not React Router's developer page (ADR 0016).
        errorElement: <RouteError />,
        children: [
          { path: "/", element: page(() => import("@/features/dashboard/DashboardPage")) },
          { path: "/courses", element: page(() => import("@/features/courses/CoursesPage")) },
          { path: "/courses/:id", element: page(() => import("@/features/courses/CourseDetailPage")) },
          { path: "/units", element: page(() => import("@/features/units/UnitsPage")) },
          { path: "/units/:id", element: page(() => import("@/features/units/UnitDetailPage")) },
          { path: "/study-plans", element: page(() => import("@/features/study-plans/StudyPlansPage")) },
          { path: "/study-plans/:id", element: page(() => import("@/features/study-plans/StudyPlanDetailPage")) },
          { path: "/block-groups", element: page(() => import("@/features/block-groups/BlockGroupsPage")) },
          { path: "/block-groups/:id", element: page(() => import("@/features/block-groups/BlockGroupDetailPage")) },
          { path: "/linked-block-groups", element: page(() => import("@/features/linked-groups/LinkedGroupsPage")) },
          { path: "/teachers", element: page(() => import("@/features/teachers/TeachersPage")) },
          { path: "/teachers/:id", element: page(() => import("@/features/teachers/TeacherDetailPage")) },
          {
            path: "/teacher-allocation-gantt",
            element: guarded(page(() => import("@/features/allocation-grid/AllocationGridPage"))),
          },
          { path: "/timetables", element: page(() => import("@/features/timetables/TimetablesPage")) },
          { path: "/timetables/:id", element: page(() => import("@/features/timetables/TimetablesPage")) },
          // The planner board (docs/adr/0026-planner-board.md): /planner/block-group|teacher|room|campus/<id>.
          { path: "/planner/:scope/:id", element: page(() => import("@/features/board/PlannerBoardPage")) },
          { path: "/holidays", element: page(() => import("@/features/holidays/HolidaysPage")) },
          { path: "/rooms", element: page(() => import("@/features/rooms/RoomsPage")) },
          { path: "/reports", element: page(() => import("@/features/reports/ReportsPage")) },
          { path: "/profile", element: page(() => import("@/features/profile/ProfilePage")) },
          { path: "/settings", element: page(() => import("@/features/settings/SettingsPage")) },
          {
            path: "/activity",
            element: <RequireAdmin>{page(() => import("@/features/history/ActivityPage"))}</RequireAdmin>,
          },
          {
            path: "/organization",
            element: <RequireAdmin message={ORGANIZATION_DENIED_TEXT}>{page(() => import("@/features/organization/OrganizationPage"))}</RequireAdmin>,
          },
          { path: "*", element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);

installUnauthorizedHandler((to) => void router.navigate(to));
// The app shell composes features: the holidays and teachers features open the re-plan review through
// lib/replan.ts, and the review is the replan feature's (docs/engineering.md, "SPA boundaries").
provideReplanReview(openReplanReview);
