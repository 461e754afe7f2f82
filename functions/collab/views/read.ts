import { ToolError } from '../../../shared/core/errors';
import { appSchema } from '../apps/lookups';
import type { Ctx } from '../params';
import type { PodioView } from '../wire';
import { toView, type View } from './render';

/** A view of an app (by id, standard name or `last`) with its filters labelled from the app's schema. */
export async function readView(ctx: Ctx, appId: number, viewIdOrName: number | string): Promise<View> {
  const [view, app] = await Promise.all([ctx.client.getView(appId, viewIdOrName), appSchema(ctx, appId)]);
  return toView(view, app);
}

/**
 * A view that must be a saved one (standard views and the last view cannot be changed, deleted or
 * made the default): INVALID_PARAMETER at `view_id` otherwise, with what to do instead.
 */
export function requireSaved(view: PodioView, viewId: number, action: string): PodioView {
  if (view.type === undefined || view.type === 'saved') return view;
  throw new ToolError('INVALID_PARAMETER', `View ${viewId} is the standard ${view.name ?? view.layout} view of its app, and only saved views can ${action}. createView saves a view of your own (getViews lists the saved ones).`, {
    parameter: 'view_id',
    expected: 'the id of a saved view',
  });
}
