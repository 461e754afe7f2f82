/** What `filter`/`orderby` may name on items (ShareFile's Item, File and Folder properties). */
export const ITEM_PROPERTIES = [
  'Id', 'Name', 'FileName', 'CreationDate', 'ProgenyEditDate', 'Description', 'Path', 'CreatorFirstName', 'CreatorLastName', 'CreatorNameShort',
  'FileSizeBytes', 'FileSizeInKB', 'State', 'StreamID', 'ExpirationDate', 'HasPendingDeletion', 'HasMultipleVersions', 'IsHidden', 'Parent', 'FileCount',
  'Hash', 'Version', 'Info',
] as const;

export const ITEM_FILTER_EXAMPLES = {
  filter: "startswith(Name,'Q1') eq true and FileSizeBytes gt 100000",
  orderby: 'CreationDate desc, Name',
};
