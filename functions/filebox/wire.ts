/** ShareFile's wire shapes (docs/vendors/sharefile.md): OData v3 JSON Light, PascalCase properties. */

export interface SfFeed<T> {
  'odata.metadata'?: string;
  'odata.count'?: number;
  'odata.nextLink'?: string;
  value: T[];
}

export interface SfRef {
  'odata.type'?: string;
  Id: string;
  url?: string;
}

export interface SfItemInfo {
  IsAHomeFolder?: boolean;
  IsMyHomeFolder?: boolean;
  IsSharedFolder?: boolean;
  CanUpload?: boolean;
  CanDownload?: boolean;
  CanView?: boolean;
  CanDeleteCurrentItem?: boolean;
  CanManagePermissions?: boolean;
}

export interface SfItem {
  'odata.metadata'?: string;
  'odata.type': string;
  Id: string;
  url?: string;
  Name?: string;
  FileName?: string;
  Parent?: SfRef;
  CreationDate?: string;
  ProgenyEditDate?: string;
  Description?: string;
  Path?: string;
  CreatorFirstName?: string;
  CreatorLastName?: string;
  FileSizeBytes?: number;
  FileCount?: number;
  State?: number;
  StreamID?: string;
  ExpirationDate?: string;
  HasPendingDeletion?: boolean;
  HasMultipleVersions?: boolean;
  Info?: SfItemInfo;
  Children?: SfItem[];
  Hash?: string;
  Version?: number;
}

export interface SfItemWrite {
  Name?: string;
  FileName?: string;
  Description?: string;
  ExpirationDate?: string;
  Parent?: { Id: string };
}

export interface SfAsyncOperation {
  'odata.type': string;
  Id: string;
  Operation?: string;
  State: string;
  Source?: { Id: string };
  Target?: { Id: string };
  CreationDate?: string;
  UpdateDate?: string;
}

export interface SfSearchResult {
  ItemID: string;
  ParentID: string;
  ParentName?: string;
  ItemType: string;
  FileName: string;
  DisplayName?: string;
  Size?: number;
  CreatorID?: string;
  CreatorName?: string;
  CreationDate?: string;
  Url?: string;
  Path?: string;
  StreamID?: string;
  CanDownload?: boolean;
  CanView?: boolean;
  CanDelete?: boolean;
}

export interface SfSearchResults {
  PartialResults: boolean;
  TimedOut: boolean;
  TotalCount?: number;
  Results: SfSearchResult[];
}

export interface SfSearchQuery {
  Query: { ItemType: string; ParentID: string; CreatorID: string; SearchQuery: string; CreateStartDate: string; CreateEndDate: string; ItemNameOnly: boolean };
  Paging: { Count: number; Skip: number };
  Sort: { SortBy: string; Ascending: boolean };
  TimeoutInSeconds: number;
}

export interface SfDownloadSpecification {
  DownloadToken: string;
  DownloadUrl: string;
  DownloadPrepStartURL?: string | null;
  DownloadPrepStatusURL?: string | null;
}

export interface SfUploadSpecification {
  Method: string;
  ChunkUri: string;
  FinishUri?: string | null;
  PrepareUri?: string | null;
}

/** What a ChunkUri answers with `fmt=json`. */
export interface SfUploadResult {
  error: boolean;
  errorMessage?: string;
  value?: { id: string; filename: string; size: number; md5?: string }[];
}

export interface SfUser {
  'odata.type': string;
  Id: string;
  url?: string;
  Email?: string;
  Emails?: { Email: string; IsConfirmed?: boolean; IsPrimary?: boolean }[];
  Username?: string;
  FirstName?: string;
  LastName?: string;
  FullName?: string;
  FullNameShort?: string;
  Initials?: string;
  Company?: string;
  DateCreated?: string;
  IsConfirmed?: boolean;
  IsDeleted?: boolean;
  IsBillingContact?: boolean;
  IsAdministrator?: boolean;
  IsEmployee?: boolean;
  Roles?: string[];
  CanCreateFolders?: boolean;
  CanUseFileBox?: boolean;
  CanManageUsers?: boolean;
  IsVirtualClient?: boolean;
  Domain?: string;
  ReferredBy?: string | null;
  TotalSharedFiles?: number;
  Contacted?: number;
  Security?: { IsDisabled?: boolean; IsLocked?: boolean } & Record<string, unknown>;
  Preferences?: Record<string, unknown>;
  DiskSpace?: { Max?: number; Used?: number; Free?: number };
}

export interface SfUserWrite {
  Email?: string;
  FirstName?: string;
  LastName?: string;
  Company?: string;
  Password?: string;
  Security?: { IsDisabled: boolean };
  IsAdministrator?: boolean;
  CanCreateFolders?: boolean;
  CanManageUsers?: boolean;
}

export interface SfContact {
  'odata.type'?: string;
  Id: string;
  url?: string;
  Email?: string;
  FirstName?: string;
  LastName?: string;
  Company?: string;
  Name?: string;
  IsConfirmed?: boolean;
  IsDisabled?: boolean;
  LastAnyLogin?: string | null;
  CreatedDate?: string;
}

export interface SfGroup {
  'odata.type': string;
  Id: string;
  url?: string;
  Name: string;
  IsShared?: boolean;
  NumberOfContacts?: number;
  Contacts?: SfContact[];
}

export interface SfAccessControl {
  'odata.type': string;
  Id: string;
  url?: string;
  Principal: { 'odata.type'?: string; Id: string; url?: string; Name?: string; Email?: string };
  CanUpload: boolean;
  CanDownload: boolean;
  CanView: boolean;
  CanDelete: boolean;
  CanManagePermissions: boolean;
  NotifyOnUpload: boolean;
  NotifyOnDownload: boolean;
  IsOwner?: boolean;
}

export interface SfAccessControlWrite {
  Principal: { Id: string };
  CanView?: boolean;
  CanDownload?: boolean;
  CanUpload?: boolean;
  CanDelete?: boolean;
  CanManagePermissions?: boolean;
  NotifyOnUpload?: boolean;
  NotifyOnDownload?: boolean;
  Message?: string;
}

export interface SfShare {
  'odata.type': string;
  Id: string;
  url?: string;
  AliasID?: string;
  ShareType: 'Send' | 'Request';
  Title?: string;
  HasSentMessage?: boolean;
  RequireLogin?: boolean;
  RequireUserInfo?: boolean;
  ShareAccessLevel?: string;
  CreationDate?: string;
  ExpirationDate?: string;
  MaxDownloads?: number;
  TotalDownloads?: number;
  IsViewOnly?: boolean;
  IsArchived?: boolean;
  UsesStreamIDs?: boolean;
  Uri?: string;
  ShareSubType?: string;
  ShareAccessRight?: { DisplayText?: string; AccessRightType?: string; IsWatermarked?: boolean; IsViewOnly?: boolean };
  Parent?: SfRef;
  Items?: SfItem[];
  Recipients?: { Id: string; Email?: string; Downloads?: number; Uri?: string }[];
}

export interface SfShareWrite {
  ShareType?: 'Send' | 'Request';
  Title?: string;
  Items?: { Id: string }[];
  Parent?: { Id: string };
  Recipients?: { User: { Email: string } }[];
  ExpirationDate?: string;
  MaxDownloads?: number;
  RequireLogin?: boolean;
  RequireUserInfo?: boolean;
  IsViewOnly?: boolean;
  NotifyOnDownload?: boolean;
  NotifyOnUpload?: boolean;
}
