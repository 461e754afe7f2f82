import * as z from 'zod';
import { id } from '../../../../shared/core/params';
import { plural } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { appLine, toAppSummary, type AppSummary } from '../../apps/schema';

interface SpaceApps {
  space_id: number;
  apps: AppSummary[];
}

export const getAppsBySpace = collabTool({
  name: 'getAppsBySpace',
  description:
    'List the apps of a space (workspace): app_id, name, what one item is called, description. Use it to find the app_id that getApp, createItem and ' +
    'filterItems need; getOrganizations (or getUserStatus) lists the spaces the key sees with their space_id. Field schemas are not included: call getApp. Read-only.',
  input: z.strictObject({ space_id: id('Numeric id of the space (getOrganizations lists the spaces of each org).') }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ space_id }, { client }): Promise<SpaceApps> {
    const apps = await client.listSpaceApps(space_id);
    return { space_id, apps: apps.map(toAppSummary) };
  },
  text: (r: SpaceApps) =>
    r.apps.length
      ? [...r.apps.map(appLine), `${plural(r.apps.length, 'app')} in space #${r.space_id} — getApp app_id for an app's fields`].join('\n')
      : `no apps in space #${r.space_id}`,
  example: {
    input: { space_id: 7101 },
    result: {
      space_id: 7101,
      apps: [
        { app_id: 8101, name: 'Companies', item_name: 'Company', description: 'Customers and prospects.', link: 'https://podio.com/sandbox-co/sales/apps/companies' },
        { app_id: 8102, name: 'Deals', item_name: 'Deal', description: 'Opportunities in the sales pipeline.', link: 'https://podio.com/sandbox-co/sales/apps/deals' },
      ],
    },
  },
});
