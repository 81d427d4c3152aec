import { useEffect } from 'react';
import { Outlet, type Params, useMatches } from 'react-router';

import { Loading } from '@/components/Loading';

import { documentTitle, isRouteHandle, type UseRouteTitle } from './pageTitle';

function RouteTitle({ useTitle, params }: { useTitle: UseRouteTitle; params: Params }) {
  const title = useTitle(params);
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
  return null;
}

/** The tab's title: the deepest route's title (routes.tsx names every page there, in one place). */
function DocumentTitle() {
  const match = [...useMatches()].reverse().find((candidate) => isRouteHandle(candidate.handle));
  useEffect(() => {
    if (!match) document.title = documentTitle(undefined);
  }, [match]);
  if (!match || !isRouteHandle(match.handle)) return null;
  // Keyed by route: another route's title hook is another component, so hooks keep their order.
  return <RouteTitle key={match.id} useTitle={match.handle.useTitle} params={match.params} />;
}

export function RootRoute() {
  return (
    <>
      <DocumentTitle />
      <Outlet />
    </>
  );
}

/** Shown while the first page's chunk loads (React Router's HydrateFallback): never a blank screen. */
export function RouteLoading() {
  return <Loading label="Loading page…" />;
}
