import { createBrowserRouter, Navigate } from 'react-router';

import { LoginPage } from '@/features/auth/routes/LoginPage';
import { CircuitsPage } from '@/features/circuits/routes/CircuitsPage';
import { ScheduleDetailPage } from '@/features/circuits/routes/ScheduleDetailPage';
import { DecisionsPage } from '@/features/corruption/routes/DecisionsPage';
import { FabricHealthPage } from '@/features/corruption/routes/FabricHealthPage';
import { OptimizerRunPage } from '@/features/corruption/routes/OptimizerRunPage';
import { FabricDetailPage } from '@/features/fabrics/routes/FabricDetailPage';
import { FabricsPage } from '@/features/fabrics/routes/FabricsPage';
import { JobsPage } from '@/features/jobs/routes/JobsPage';
import { LinkDetailPage } from '@/features/links/routes/LinkDetailPage';
import { LinksPage } from '@/features/links/routes/LinksPage';
import { ClassesDetailPage } from '@/features/planning/routes/ClassesDetailPage';
import { ClassesPage } from '@/features/planning/routes/ClassesPage';
import { PlanDetailPage } from '@/features/planning/routes/PlanDetailPage';
import { PlanningPage } from '@/features/planning/routes/PlanningPage';
import { LarryJobPage } from '@/features/reconfig/routes/LarryJobPage';
import { LarryPage } from '@/features/reconfig/routes/LarryPage';
import { ShareBackupJobPage } from '@/features/reconfig/routes/ShareBackupJobPage';
import { ShareBackupPage } from '@/features/reconfig/routes/ShareBackupPage';
import { SimulationDetailPage } from '@/features/simulation/routes/SimulationDetailPage';
import { SimulationsPage } from '@/features/simulation/routes/SimulationsPage';
import { TicketDetailPage } from '@/features/tickets/routes/TicketDetailPage';
import { TicketsPage } from '@/features/tickets/routes/TicketsPage';

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
