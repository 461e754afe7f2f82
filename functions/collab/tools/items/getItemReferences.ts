import * as z from 'zod';
import { plural } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { itemIdInput } from '../../params';
import { onItem } from '../../items/read';
import { refLine, toRef, type ItemRef } from '../../items/read-refs';

interface ReferenceGroup {
  app_id: number;
  name?: string;
  items: ItemRef[];
}

interface References {
  item_id: number;
  /** Items pointing at the item, over all apps. */
  total: number;
  apps: ReferenceGroup[];
}

export const getItemReferences = collabTool({
  name: 'getItemReferences',
  description:
    'The items that point at an item through their app relation fields (e.g. the deals of a company, the projects of a deal), grouped by app: ' +
    'app_id, app name, and each item_id, app_item_id, title and link. Only apps the key can see are listed. Use getItem or filterItems ' +
    '(filter the relation field by this item_id) for their field values. Read-only.',
  input: z.strictObject({ item_id: itemIdInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ item_id }, { client }): Promise<References> {
    const groups = await onItem(item_id, () => client.getItemReferences(item_id));
    const apps = groups.map((g) => ({ app_id: g.app.app_id, ...(g.app.name ? { name: g.app.name } : {}), items: g.items.map((i) => toRef(i)) }));
    return { item_id, total: apps.reduce((n, a) => n + a.items.length, 0), apps };
  },
  text: (r: References) => {
    if (!r.total) return `no items point at item #${r.item_id}`;
    const lines = r.apps.flatMap((a) => [`app #${a.app_id}${a.name ? ` ${a.name}` : ''} (${plural(a.items.length, 'item')}):`, ...a.items.map((i) => `  ${refLine(i)}`)]);
    return [...lines, `${plural(r.total, 'item')} in ${plural(r.apps.length, 'app')} point at item #${r.item_id}`].join('\n');
  },
  example: {
    input: { item_id: 30001 },
    result: {
      item_id: 30001,
      total: 2,
      apps: [
        {
          app_id: 8102,
          name: 'Deals',
          items: [
            { item_id: 30150, app_item_id: 90, title: 'Renewal — Northwind Traders', link: 'https://podio.com/sandbox-co/sales/apps/deals/items/90' },
            { item_id: 30077, app_item_id: 17, title: 'Pilot — Northwind Traders', link: 'https://podio.com/sandbox-co/sales/apps/deals/items/17' },
          ],
        },
      ],
    },
  },
});
