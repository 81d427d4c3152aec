import { createBrowserRouter } from 'react-router';

import { AuditPage } from '@/features/audit/routes';
import { LoginPage } from '@/features/auth/routes';
import { CircuitsPage, ScheduleDetailPage } from '@/features/circuits/routes';
import { DecisionsPage, FabricHealthPage, OptimizerRunPage } from '@/features/corruption/routes';
import { FabricDetailPage, FabricsPage } from '@/features/fabrics/routes';
import { AtRiskPage } from '@/features/forecasts/routes';
import { JobsPage } from '@/features/jobs/routes';
import { LinkDetailPage, LinksPage } from '@/features/links/routes';
import { PlanPage, TodayPage, WorkOrderDetailPage, WorkOrdersPage } from '@/features/maintenance/routes';
import { ClassesDetailPage, ClassesPage, PlanDetailPage, PlanningPage } from '@/features/planning/routes';
import { LarryJobPage, LarryPage, ShareBackupJobPage, ShareBackupPage } from '@/features/reconfig/routes';
import { SimulationDetailPage, SimulationsPage } from '@/features/simulation/routes';
import { RackPage, SwitchPage } from '@/features/switches/routes';
import { TicketDetailPage, TicketsPage } from '@/features/tickets/routes';
import { WebhooksPage } from '@/features/webhooks/routes';

import { LandingRedirect } from './LandingRedirect';
import { NotFoundPage } from './NotFoundPage';
import { PageError } from './PageError';
import { RequireAuth } from './RequireAuth';

export const router = createBrowserRouter([
  { path: '/login', element: <LoginPage /> },
  {
    element: <RequireAuth />,
    children: [
      {
        // Inside the layout: a page that fails to render keeps the navigation.
        errorElement: <PageError />,
        children: [
          { index: true, element: <LandingRedirect /> },
          { path: 'fabrics', element: <FabricsPage /> },
          { path: 'fabrics/:fabricId', element: <FabricDetailPage /> },
          { path: 'fabrics/:fabricId/racks/:rack', element: <RackPage /> },
          { path: 'switches/:switchId', element: <SwitchPage /> },
          { path: 'links', element: <LinksPage /> },
          { path: 'links/:linkId', element: <LinkDetailPage /> },
          { path: 'at-risk', element: <AtRiskPage /> },
          { path: 'tickets', element: <TicketsPage /> },
          { path: 'tickets/:ticketId', element: <TicketDetailPage /> },
          { path: 'today', element: <TodayPage /> },
          { path: 'work-orders', element: <WorkOrdersPage /> },
          { path: 'work-orders/plan', element: <PlanPage /> },
          { path: 'work-orders/:workOrderId', element: <WorkOrderDetailPage /> },
          { path: 'fabric-health', element: <FabricHealthPage /> },
          { path: 'decisions', element: <DecisionsPage /> },
          { path: 'optimizer/:jobId', element: <OptimizerRunPage /> },
          { path: 'simulations', element: <SimulationsPage /> },
          { path: 'simulations/:jobId', element: <SimulationDetailPage /> },
          { path: 'planning', element: <PlanningPage /> },
          { path: 'planning/plans/:jobId', element: <PlanDetailPage /> },
          { path: 'planning/classes', element: <ClassesPage /> },
          { path: 'planning/classes/:jobId', element: <ClassesDetailPage /> },
          { path: 'circuits', element: <CircuitsPage /> },
          { path: 'circuits/schedules/:jobId', element: <ScheduleDetailPage /> },
          { path: 'sharebackup', element: <ShareBackupPage /> },
          { path: 'sharebackup/:jobId', element: <ShareBackupJobPage /> },
          { path: 'larry', element: <LarryPage /> },
          { path: 'larry/:jobId', element: <LarryJobPage /> },
          { path: 'jobs', element: <JobsPage /> },
          { path: 'audit', element: <AuditPage /> },
          { path: 'webhooks', element: <WebhooksPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);
