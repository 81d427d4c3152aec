import { createBrowserRouter, Navigate } from 'react-router';

import { LoginPage } from '@/features/auth';
import { CircuitsPage, ScheduleDetailPage } from '@/features/circuits';
import { DecisionsPage, FabricHealthPage, OptimizerRunPage } from '@/features/corruption';
import { FabricDetailPage, FabricsPage } from '@/features/fabrics';
import { JobsPage } from '@/features/jobs';
import { LinkDetailPage, LinksPage } from '@/features/links';
import { WorkOrderDetailPage, WorkOrdersPage } from '@/features/maintenance';
import { ClassesDetailPage, ClassesPage, PlanDetailPage, PlanningPage } from '@/features/planning';
import { LarryJobPage, LarryPage, ShareBackupJobPage, ShareBackupPage } from '@/features/reconfig';
import { SimulationDetailPage, SimulationsPage } from '@/features/simulation';
import { TicketDetailPage, TicketsPage } from '@/features/tickets';

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
          { index: true, element: <Navigate to="/fabrics" replace /> },
          { path: 'fabrics', element: <FabricsPage /> },
          { path: 'fabrics/:fabricId', element: <FabricDetailPage /> },
          { path: 'links', element: <LinksPage /> },
          { path: 'links/:linkId', element: <LinkDetailPage /> },
          { path: 'tickets', element: <TicketsPage /> },
          { path: 'tickets/:ticketId', element: <TicketDetailPage /> },
          { path: 'work-orders', element: <WorkOrdersPage /> },
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
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);
