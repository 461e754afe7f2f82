/** HubSpot CRM v3/v4 wire types (docs/vendors/hubspot.md), as far as the crm tools read them. */

export type HubSpotObjectType = 'contacts' | 'companies' | 'deals' | 'tickets';

/** SimplePublicObject: every value a string; a requested property without a value is null. */
export interface HubSpotRecord {
  id: string;
  properties: Record<string, string | null>;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  archivedAt?: string;
  url?: string;
}

export interface HubSpotFilter {
  propertyName: string;
  operator: string;
  value?: string;
  highValue?: string;
  values?: string[];
}

/** PublicObjectSearchRequest. */
export interface HubSpotSearchBody {
  filterGroups: { filters: HubSpotFilter[] }[];
  sorts: { propertyName: string; direction: 'ASCENDING' | 'DESCENDING' }[];
  properties: string[];
  limit: number;
  after?: string;
  query?: string;
}

/** CollectionResponseWithTotalSimplePublicObject. */
export interface HubSpotSearchPage {
  total: number;
  results: HubSpotRecord[];
  paging?: { next?: { after: string; link?: string } };
}

export interface HubSpotOption {
  label: string;
  value: string;
  description?: string;
  displayOrder?: number;
  hidden: boolean;
}

/** Property (properties-v3.json). */
export interface HubSpotProperty {
  name: string;
  label: string;
  type: string;
  fieldType: string;
  groupName: string;
  description?: string;
  options: HubSpotOption[];
  calculated?: boolean;
  hubspotDefined?: boolean;
  externalOptions?: boolean;
  referencedObjectType?: string;
  hidden?: boolean;
  modificationMetadata?: { readOnlyValue: boolean; readOnlyDefinition: boolean; archivable: boolean };
}

/** PropertyCreate. */
export interface HubSpotPropertyCreate {
  name: string;
  label: string;
  type: string;
  fieldType: string;
  groupName: string;
  options?: { label: string; value: string; hidden: boolean; displayOrder: number }[];
}

/** Pipeline and PipelineStage (pipelines-v3.json). */
export interface HubSpotPipeline {
  id: string;
  label: string;
  displayOrder: number;
  archived: boolean;
  stages: { id: string; label: string; displayOrder: number; archived: boolean; metadata: Record<string, string> }[];
}

/** MultiAssociatedObjectWithLabel (associations-v4.json); HubSpot sends toObjectId as a number, its document says string. */
export interface HubSpotAssociation {
  toObjectId: string | number;
  associationTypes: { category: string; typeId: number; label?: string | null }[];
}

export interface HubSpotAssociationPage {
  results: HubSpotAssociation[];
  paging?: { next?: { after: string } };
}
