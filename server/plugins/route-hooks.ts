import type { RouteOptions } from 'fastify';

type HookName = 'onRequest' | 'preValidation' | 'onSend' | 'onResponse';

/**
 * Adds a hook to one route as it is registered (from an `onRoute` hook), after the route's own
 * hooks or, with `first`, before them. Hooks that only some routes need go on those routes alone:
 * an instance-wide hook runs on every request, and a cached list call paid for hooks that had
 * nothing to do there (issue 7).
 */
export function addRouteHook(route: RouteOptions, name: HookName, hook: unknown, first = false): void {
  const own = route[name] as unknown;
  const hooks = own === undefined ? [] : Array.isArray(own) ? own : [own];
  (route as unknown as Record<HookName, unknown[]>)[name] = first ? [hook, ...hooks] : [...hooks, hook];
}

/** Whether the route answers any of these methods. */
export function routeAnswers(route: RouteOptions, methods: ReadonlySet<string>): boolean {
  return (Array.isArray(route.method) ? route.method : [route.method]).some((m) => methods.has(m));
}

/** Whether the route is part of the API (paths match in any case). */
export const isApiRoute = (route: RouteOptions): boolean => route.url.toLowerCase().startsWith('/api/');
