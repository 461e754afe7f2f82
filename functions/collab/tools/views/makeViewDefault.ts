import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { collabTool } from '../../tool';
import { viewIdInput } from '../../views/inputs';
import { requireSaved } from '../../views/read';

interface DefaultSet {
  default_set: true;
  view_id: number;
}

export const makeViewDefault = collabTool({
  name: 'makeViewDefault',
  description:
    "Make a saved view the app's default view: what members see when they open the app (and what getView \"last\" answers for someone who has no last view). " +
    'Only saved, shared views qualify — not the standard table/badge/calendar views, not private ones. Needs app update rights. Returns {default_set: true, view_id}.',
  input: z.strictObject({ view_id: viewIdInput }),
  annotations: { readOnly: false, destructive: false, idempotent: true },
  async run({ view_id }, { client }): Promise<DefaultSet> {
    const view = requireSaved(await client.getViewById(view_id), view_id, 'be the default view');
    if (view.private) {
      throw invalidParameter('view_id', 'the id of a shared (not private) saved view', `View ${view_id} "${view.name}" is private; make it shared first (updateView with private false), or pick a shared view.`);
    }
    await client.makeViewDefault(view_id);
    return { default_set: true, view_id };
  },
  text: (r: DefaultSet) => `view #${r.view_id} is now the app's default view`,
  example: { input: { view_id: 20003 }, result: { default_set: true, view_id: 20003 } },
});
