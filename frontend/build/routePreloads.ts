/**
 * Writes `dist/route-preloads.json`: for each lazy route of the app ("tickets/:ticketId"), the
 * files of the page chunk it loads (its script, the scripts it imports beyond the first download,
 * its stylesheets). The backend names them in the index.html it answers for a path that route
 * matches (`<link rel="modulepreload">`), so a phone fetches the page's code alongside the first
 * download instead of one round trip after it (BENCHMARKS "Speed on a phone").
 *
 * The routes are read from src/app/routes.tsx, whose lazy routes all have the shape
 * `path: 'tickets/:ticketId', lazy: page(feature, 'PageName')` with `const feature = () =>
 * import('@/features/<name>/routes')`; a lazy route the build cannot read fails the build, so the
 * file stays in step with the router.
 */
import { readFileSync } from 'node:fs';

import type { Plugin } from 'vite';

const LOADER = /const (\w+) = \(\) => import\('@\/features\/([\w-]+)\/routes'\);/g;
const LAZY_ROUTE = /path: '([^']*)',\s*lazy: page\((\w+),/g;
const LAZY_ANY = /lazy: page\(/g;

/** Route path ("tickets/:ticketId") -> feature folder, from the route table's source. */
export function routeFeatures(routesSource: string): Map<string, string> {
  const featureOf = new Map([...routesSource.matchAll(LOADER)].map(([, loader, feature]) => [loader, feature]));
  const lazyRoutes = [...routesSource.matchAll(LAZY_ROUTE)];
  if (lazyRoutes.length !== [...routesSource.matchAll(LAZY_ANY)].length) {
    throw new Error('routePreloads: a lazy route in routes.tsx is not `path: ..., lazy: page(feature, ...)`');
  }
  const routes = new Map<string, string>();
  for (const [, path, loader] of lazyRoutes) {
    const feature = featureOf.get(loader);
    // The not-found page ('*', loaded from the app folder) is not worth a preload.
    if (feature && path !== '*') routes.set(path.replace(/^\//, ''), feature);
  }
  if (routes.size === 0) throw new Error('routePreloads: no lazy route found in routes.tsx');
  return routes;
}

const FEATURE_PAGES = /\/src\/features\/([^/]+)\/routes\/index\.ts$/;

interface ChunkLike {
  type: 'chunk';
  fileName: string;
  facadeModuleId: string | null;
  imports: string[];
  isEntry: boolean;
  viteMetadata?: { importedCss: Set<string> };
}

export function routePreloads(routesFile: string): Plugin {
  return {
    name: 'lightpath-route-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const features = routeFeatures(readFileSync(routesFile, 'utf8'));
      const chunks = Object.values(bundle).filter((item): item is typeof item & ChunkLike => item.type === 'chunk');
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      // What index.html loads anyway: the entry and everything it imports statically.
      const initial = new Set<string>();
      const addInitial = (fileName: string) => {
        if (initial.has(fileName)) return;
        initial.add(fileName);
        byName.get(fileName)?.imports.forEach(addInitial);
      };
      chunks.filter((chunk) => chunk.isEntry).forEach((chunk) => addInitial(chunk.fileName));

      const filesOf = (feature: string): string[] => {
        const page = chunks.find((chunk) => chunk.facadeModuleId?.match(FEATURE_PAGES)?.[1] === feature);
        if (!page) throw new Error(`routePreloads: no page chunk for the feature "${feature}"`);
        const files = new Set<string>();
        const visit = (fileName: string) => {
          if (initial.has(fileName) || files.has(fileName)) return;
          files.add(fileName);
          const chunk = byName.get(fileName);
          chunk?.viteMetadata?.importedCss.forEach((css) => files.add(css));
          chunk?.imports.forEach(visit);
        };
        visit(page.fileName);
        return [...files].map((file) => `/${file}`);
      };

      const preloads = Object.fromEntries([...features].map(([path, feature]) => [path, filesOf(feature)]));
      this.emitFile({
        type: 'asset',
        fileName: 'route-preloads.json',
        source: `${JSON.stringify(preloads, null, 1)}\n`,
      });
    },
  };
}
