import type { ComponentType } from 'react';
import type { LoaderFunctionArgs, Params, RouteObject } from 'react-router';

import { useFabric } from '@/features/fabrics';
import { useLinkName } from '@/features/links';
import { useSwitchName } from '@/features/switches';
import { ticketQuery } from '@/features/tickets';

import { LandingRedirect } from './LandingRedirect';
import { titled } from './pageTitle';
import { PageError } from './PageError';
import { queryClient } from './queryClient';
import { RequireAuth } from './RequireAuth';
import { RootRoute, RouteLoading } from './RootRoute';

/**
 * Each feature's pages load as their own chunk when a route first needs them (route-based code
 * splitting: the first screen downloads the shell and one feature, not D3 and every page).
 */
function page<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return async () => ({ Component: (await load())[name] });
}

const audit = () => import('@/features/audit/routes');
const auth = () => import('@/features/auth/routes');
const circuits = () => import('@/features/circuits/routes');
const corruption = () => import('@/features/corruption/routes');
const fabrics = () => import('@/features/fabrics/routes');
const forecasts = () => import('@/features/forecasts/routes');
const jobs = () => import('@/features/jobs/routes');
const links = () => import('@/features/links/routes');
const maintenance = () => import('@/features/maintenance/routes');
const planning = () => import('@/features/planning/routes');
const reconfig = () => import('@/features/reconfig/routes');
const simulation = () => import('@/features/simulation/routes');
const switches = () => import('@/features/switches/routes');
const tickets = () => import('@/features/tickets/routes');
const webhooks = () => import('@/features/webhooks/routes');
const notFound = () => import('./NotFoundPage');

function useFabricTitle({ fabricId }: Params): string {
  const id = Number(fabricId);
  const fabric = useFabric(id, { enabled: Number.isInteger(id) && id > 0 });
  return fabric.data?.name ?? `Fabric ${fabricId}`;
}

function useSwitchTitle({ switchId }: Params): string {
  return useSwitchName(Number(switchId)) ?? `Switch ${switchId}`;
}

/** The link's name, as its page's heading (trial 30: the tab read "Link 1" under "p0-tor0 eth2/1 ↔ …"). */
function useLinkTitle({ linkId }: Params): string {
  return useLinkName(Number(linkId)) ?? `Link ${linkId}`;
}

/**
 * The technician's ticket is asked for while its page's code loads, not after: on a phone each
 * round trip is ~300 ms. The page reads the same query; the loader waits for nothing.
 */
function prefetchTicket({ params }: LoaderFunctionArgs): null {
  const ticketId = Number(params.ticketId);
  if (Number.isInteger(ticketId) && ticketId > 0) void queryClient.prefetchQuery(ticketQuery(ticketId));
  return null;
}

export const routes: RouteObject[] = [
  {
    element: <RootRoute />,
    HydrateFallback: RouteLoading,
    children: [
      { path: '/login', lazy: page(auth, 'LoginPage'), handle: titled('Log in') },
      {
        element: <RequireAuth />,
        children: [
          {
            // Inside the layout: a page that fails to render keeps the navigation, and the first
            // page's chunk loads under it (HydrateFallback) rather than on a blank screen.
            errorElement: <PageError />,
            HydrateFallback: RouteLoading,
            children: [
              { index: true, element: <LandingRedirect /> },
              { path: 'fabrics', lazy: page(fabrics, 'FabricsPage'), handle: titled('Fabrics') },
              { path: 'fabrics/:fabricId', lazy: page(fabrics, 'FabricDetailPage'), handle: titled(useFabricTitle) },
              {
                path: 'fabrics/:fabricId/racks/:rack',
                lazy: page(switches, 'RackPage'),
                handle: titled(({ rack }) => `Rack ${rack}`),
              },
              { path: 'switches/:switchId', lazy: page(switches, 'SwitchPage'), handle: titled(useSwitchTitle) },
              { path: 'links', lazy: page(links, 'LinksPage'), handle: titled('Links') },
              {
                path: 'links/:linkId',
                lazy: page(links, 'LinkDetailPage'),
                handle: titled(useLinkTitle),
              },
              { path: 'at-risk', lazy: page(forecasts, 'AtRiskPage'), handle: titled('At risk') },
              { path: 'tickets', lazy: page(tickets, 'TicketsPage'), handle: titled('Tickets') },
              {
                path: 'tickets/:ticketId',
                lazy: page(tickets, 'TicketDetailPage'),
                handle: titled(({ ticketId }) => `Ticket #${ticketId}`),
                loader: prefetchTicket,
              },
              { path: 'today', lazy: page(maintenance, 'TodayPage'), handle: titled('Today') },
              { path: 'work-orders', lazy: page(maintenance, 'WorkOrdersPage'), handle: titled('Work orders') },
              { path: 'work-orders/plan', lazy: page(maintenance, 'PlanPage'), handle: titled('Plan work orders') },
              {
                path: 'work-orders/:workOrderId',
                lazy: page(maintenance, 'WorkOrderDetailPage'),
                handle: titled(({ workOrderId }) => `Work order #${workOrderId}`),
              },
              { path: 'fabric-health', lazy: page(corruption, 'FabricHealthPage'), handle: titled('Health') },
              { path: 'decisions', lazy: page(corruption, 'DecisionsPage'), handle: titled('Decisions') },
              {
                path: 'optimizer/:jobId',
                lazy: page(corruption, 'OptimizerRunPage'),
                handle: titled(({ jobId }) => `Optimizer run ${jobId}`),
              },
              { path: 'simulations', lazy: page(simulation, 'SimulationsPage'), handle: titled('Simulations') },
              {
                path: 'simulations/:jobId',
                lazy: page(simulation, 'SimulationDetailPage'),
                handle: titled(({ jobId }) => `Simulation ${jobId}`),
              },
              { path: 'planning', lazy: page(planning, 'PlanningPage'), handle: titled('Planning') },
              {
                path: 'planning/plans/:jobId',
                lazy: page(planning, 'PlanDetailPage'),
                handle: titled(({ jobId }) => `Plan ${jobId}`),
              },
              { path: 'planning/classes', lazy: page(planning, 'ClassesPage'), handle: titled('Traffic classes') },
              {
                path: 'planning/classes/:jobId',
                lazy: page(planning, 'ClassesDetailPage'),
                handle: titled(({ jobId }) => `Traffic classes ${jobId}`),
              },
              { path: 'circuits', lazy: page(circuits, 'CircuitsPage'), handle: titled('Circuits') },
              {
                path: 'circuits/schedules/:jobId',
                lazy: page(circuits, 'ScheduleDetailPage'),
                handle: titled(({ jobId }) => `Circuit schedule ${jobId}`),
              },
              { path: 'sharebackup', lazy: page(reconfig, 'ShareBackupPage'), handle: titled('Failover') },
              {
                path: 'sharebackup/:jobId',
                lazy: page(reconfig, 'ShareBackupJobPage'),
                handle: titled(({ jobId }) => `Failover plan ${jobId}`),
              },
              { path: 'larry', lazy: page(reconfig, 'LarryPage'), handle: titled('Uplinks') },
              {
                path: 'larry/:jobId',
                lazy: page(reconfig, 'LarryJobPage'),
                handle: titled(({ jobId }) => `Uplinks plan ${jobId}`),
              },
              { path: 'jobs', lazy: page(jobs, 'JobsPage'), handle: titled('Jobs') },
              { path: 'audit', lazy: page(audit, 'AuditPage'), handle: titled('Audit') },
              { path: 'webhooks', lazy: page(webhooks, 'WebhooksPage'), handle: titled('Webhooks') },
              { path: '*', lazy: page(notFound, 'NotFoundPage'), handle: titled('Page not found') },
            ],
          },
        ],
      },
    ],
  },
];
