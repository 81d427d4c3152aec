import type { Params } from 'react-router';

/**
 * What a route names its tab with (before " · Lightpath"). The root route calls it as a hook, so a
 * page whose name is data (a switch, a fabric) reads it from the query its page makes too.
 */
export type UseRouteTitle = (params: Params) => string;
export type RouteHandle = { useTitle: UseRouteTitle };

export function titled(title: string | UseRouteTitle): RouteHandle {
  return { useTitle: typeof title === 'string' ? () => title : title };
}

export function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && 'useTitle' in handle;
}

/** "Ticket #12 · Lightpath": the page first, so tabs tell pages apart when they are narrow. */
export function documentTitle(pageTitle: string | undefined): string {
  return pageTitle ? `${pageTitle} · Lightpath` : 'Lightpath';
}
