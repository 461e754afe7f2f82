/** Items named by another item or a relation field (references, referenceable items): their ids and title, one line each. */

export interface ItemRef {
  item_id: number;
  app_item_id?: number;
  title: string;
  link?: string;
  /** The item's app, when the listing spans apps. */
  app?: { app_id: number; name?: string };
}

interface RawRef {
  item_id: number;
  title: string;
  app_item_id?: number;
  link?: string;
  app?: { app_id: number; name?: string };
}

export const toRef = (i: RawRef, withApp = false): ItemRef => ({
  item_id: i.item_id,
  ...(typeof i.app_item_id === 'number' ? { app_item_id: i.app_item_id } : {}),
  title: i.title,
  ...(i.link ? { link: i.link } : {}),
  ...(withApp && i.app ? { app: { app_id: i.app.app_id, ...(i.app.name ? { name: i.app.name } : {}) } } : {}),
});

/** `#30031 [31] Northwind Traders Nord (Companies #8101)`. */
export const refLine = (i: ItemRef): string =>
  `#${i.item_id}${i.app_item_id !== undefined ? ` [${i.app_item_id}]` : ''} ${i.title || '(untitled)'}${i.app ? ` (${i.app.name ? `${i.app.name} ` : ''}#${i.app.app_id})` : ''}`;
