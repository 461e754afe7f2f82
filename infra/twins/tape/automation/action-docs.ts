/**
 * The 35 action types of Tape's automation API as the twin describes them (catalog.ts turns each
 * into the `config_schema` that `GET /v1/automation/meta/action` serves): type, group, label, a
 * one-line description, the required config keys, the allowed values of enumerated keys, and per
 * config key its kind and meaning.
 *
 * Maintained by hand. It was transcribed once from the Config tables and token lists of Tape's
 * public action reference (https://developers.tapeapp.com/docs/api/resource/automation/reference/actions,
 * one page per action type, e.g. …/actions/custom-code): the per-key texts quote those tables, the
 * one-line descriptions condense each page's summary. There is no generator: its input would be a
 * copy of Tape's documentation, which this repository does not hold. When Tape adds or changes an
 * action, edit its entry here by its page (docs/vendors/tape.md#automation-actions); the twin's
 * catalog is read back by test/twins/tape-automation.test.ts.
 */
/* eslint-disable */
export const ACTION_DOCS: ActionDoc[] = [
 {
  "type": "custom_code",
  "group": "action",
  "label": "Run code",
  "description": "Runs custom code in the automation sandbox.",
  "required": [
   "code"
  ],
  "enums": {
   "custom_variable_defs[].custom_type": [
    "any",
    "single_file",
    "multi_file",
    "single_link",
    "html_table_rows"
   ]
  },
  "props": {
   "code": [
    "code value",
    "The code the action runs — JavaScript executed in the automation sandbox. A code value of string literals and variable references only."
   ],
   "custom_variable_defs": [
    "array of variable declarations",
    "Custom variables this action declares (e.g. its result variable) for its own code or later actions. Empty when omitted."
   ]
  }
 },
 {
  "type": "custom_variable",
  "group": "action",
  "label": "Set variable",
  "description": "Computes and stores a custom variable for later actions.",
  "required": [
   "assignment_code"
  ],
  "enums": {
   "custom_variable_defs[].custom_type": [
    "any",
    "single_file",
    "multi_file",
    "single_link",
    "html_table_rows"
   ]
  },
  "props": {
   "assignment_code": [
    "code value",
    "The code that computes and assigns the declared custom variables."
   ],
   "custom_variable_defs": [
    "array of objects",
    "Custom variables this action declares for its own code and later actions. Each entry is `{ custom_type, label }`. Empty when omitted."
   ]
  }
 },
 {
  "type": "record_create",
  "group": "action",
  "label": "Create record",
  "description": "Creates a record in an app.",
  "required": [],
  "enums": {},
  "props": {
   "app_id": [
    "integer",
    "Target app the record is created in."
   ],
   "field_assignments": [
    "array of typed per-field-type field assignments (discriminated by `field_type`), new in the typed schema",
    "Field assignments applied to the new record. Omitted means the app's default assignments."
   ],
   "author_id": [
    "integer | reference",
    "User the mutation is attributed to — a literal user id or a reference. Omitted → the automation itself."
   ],
   "trigger_webhooks": [
    "boolean",
    "Whether the mutation fires outbound webhooks."
   ],
   "trigger_other_flows": [
    "boolean",
    "Whether the mutation triggers other automations."
   ],
   "silent": [
    "boolean",
    "Whether the mutation is silent (no notifications)."
   ]
  }
 },
 {
  "type": "current_record_update",
  "group": "action",
  "label": "Update record",
  "description": "Updates the current record.",
  "required": [],
  "enums": {},
  "props": {
   "field_assignments": [
    "array of field assignments",
    "Field assignments applied to the triggering record, one entry per target field. Empty when omitted."
   ],
   "author_id": [
    "integer | reference",
    "User the mutation is attributed to — a literal user id, or a variable reference (created-by / last-modified-by / a user field). Omitted → the automation itself."
   ],
   "trigger_webhooks": [
    "boolean",
    "Whether the mutation fires outbound webhooks."
   ],
   "trigger_other_flows": [
    "boolean",
    "Whether the mutation triggers other automations."
   ],
   "silent": [
    "boolean",
    "Whether the mutation is silent (suppresses notifications)."
   ]
  }
 },
 {
  "type": "current_record_delete",
  "group": "action",
  "label": "Delete record",
  "description": "Deletes the current record.",
  "required": [],
  "enums": {},
  "props": {
   "author_id": [
    "integer | reference",
    "User the mutation is attributed to — a literal user id, or a variable reference (created-by / last-modified-by / a user field). Omitted → the automation itself."
   ],
   "trigger_webhooks": [
    "boolean",
    "Whether the mutation fires outbound webhooks."
   ],
   "trigger_other_flows": [
    "boolean",
    "Whether the mutation triggers other automations."
   ],
   "silent": [
    "boolean",
    "Whether the mutation is silent (no notifications)."
   ]
  }
 },
 {
  "type": "current_record_restore",
  "group": "action",
  "label": "Restore record",
  "description": "Restores the current (soft-deleted) record.",
  "required": [],
  "enums": {},
  "props": {
   "author_id": [
    "integer | reference",
    "User the mutation is attributed to — a literal user id, or a reference (created-by / last-modified-by / a user field). Omitted → the automation itself."
   ],
   "trigger_webhooks": [
    "boolean",
    "Whether the mutation fires outbound webhooks."
   ],
   "trigger_other_flows": [
    "boolean",
    "Whether the mutation triggers other automations."
   ],
   "silent": [
    "boolean",
    "Whether the mutation is silent (suppresses notifications)."
   ]
  }
 },
 {
  "type": "current_record_get_previous_revision",
  "group": "action",
  "label": "Get previous revision",
  "description": "Loads the previous revision of the current record.",
  "required": [],
  "enums": {},
  "props": {}
 },
 {
  "type": "current_record_comment_create",
  "group": "action",
  "label": "Add comment",
  "description": "Adds a comment to the current record.",
  "required": [
   "comment_content"
  ],
  "enums": {},
  "props": {
   "comment_content": [
    "template value",
    "Comment body posted on the run's current record."
   ],
   "author_id": [
    "integer | reference",
    "User the comment is attributed to — a literal user id or a variable reference. Omitted → the automation itself."
   ],
   "trigger_webhooks": [
    "boolean",
    "Whether the mutation fires outbound webhooks."
   ],
   "trigger_other_flows": [
    "boolean",
    "Whether the mutation triggers other automations."
   ],
   "silent": [
    "boolean",
    "Whether the mutation is silent (suppresses notifications)."
   ]
  }
 },
 {
  "type": "current_record_comment_or_reply_reply_create",
  "group": "action",
  "label": "Add reply",
  "description": "Adds a reply to the current comment or reply.",
  "required": [
   "reply_content"
  ],
  "enums": {},
  "props": {
   "reply_content": [
    "template value",
    "Reply body."
   ],
   "author_id": [
    "integer | reference",
    "User the reply is attributed to — a literal user id or a variable reference. Omitted → the automation itself."
   ],
   "trigger_webhooks": [
    "boolean",
    "Whether the reply fires outbound webhooks."
   ],
   "trigger_other_flows": [
    "boolean",
    "Whether the reply triggers other automations."
   ],
   "silent": [
    "boolean",
    "Whether the reply is silent (suppresses notifications)."
   ]
  }
 },
 {
  "type": "current_record_comment_or_reply_delete",
  "group": "action",
  "label": "Delete comment or reply",
  "description": "Deletes the current comment or reply.",
  "required": [],
  "enums": {},
  "props": {
   "author_id": [
    "integer | reference",
    "User the mutation is attributed to — a literal user id or a variable reference. Omitted → the automation itself."
   ],
   "trigger_webhooks": [
    "boolean",
    "Whether the deletion fires outbound webhooks."
   ],
   "trigger_other_flows": [
    "boolean",
    "Whether the deletion triggers other automations."
   ],
   "silent": [
    "boolean",
    "Whether the deletion is silent (suppresses notifications)."
   ]
  }
 },
 {
  "type": "collect_app_records",
  "group": "action",
  "label": "Collect app records",
  "description": "Collects records from an app, optionally filtered.",
  "required": [],
  "enums": {},
  "props": {
   "app_id": [
    "integer",
    "Id of the app whose records are collected. Carried through only when set."
   ],
   "match_condition": [
    "filter group | `null`",
    "Records filter. Empty \"match all\" condition when omitted; `null` composes back from an empty condition."
   ],
   "limit": [
    "integer",
    "Maximum number of records to collect. Default `1`."
   ],
   "limit_enabled": [
    "boolean",
    "Whether `limit` is applied. Default `false`."
   ]
  }
 },
 {
  "type": "collect_app_view_records",
  "group": "action",
  "label": "Collect app view records",
  "description": "Collects records from an app view.",
  "required": [],
  "enums": {},
  "props": {
   "app_id": [
    "integer",
    "Id of the app to collect records from."
   ],
   "app_view_id": [
    "integer",
    "Id of the app view to collect records from."
   ],
   "limit": [
    "integer",
    "Maximum number of records to collect. Defaults to the editor default when omitted."
   ],
   "limit_enabled": [
    "boolean",
    "Whether `limit` is applied. `false` when omitted."
   ]
  }
 },
 {
  "type": "collect_referenced_records",
  "group": "action",
  "label": "Collect referenced records",
  "description": "Collects records referenced by the current record.",
  "required": [],
  "enums": {
   "direction": [
    "outgoing",
    "incoming",
    "both"
   ],
   "match_type": [
    "all",
    "filtered"
   ]
  },
  "props": {
   "ref_collection_defs": [
    "array of reference-collection definitions (see below)",
    "The reference-collection definitions followed to collect referenced records. Empty when omitted."
   ]
  }
 },
 {
  "type": "collected_records_collect_referenced_records",
  "group": "action",
  "label": "Collect referenced records (from collection)",
  "description": "Collects records referenced by a starting record collection.",
  "required": [],
  "enums": {
   "direction": [
    "outgoing",
    "incoming",
    "both"
   ],
   "match_type": [
    "all",
    "filtered"
   ]
  },
  "props": {
   "record_collection": [
    "reference",
    "Action-variable reference to a prior action's collection output — the records to collect referenced records from. Omitted when unset."
   ],
   "ref_collection_defs": [
    "array of reference-collection definitions",
    "The reference-collection definitions describing which relations to traverse. Empty when omitted."
   ]
  }
 },
 {
  "type": "filter_record_collection",
  "group": "action",
  "label": "Filter collection",
  "description": "Filters a record collection.",
  "required": [],
  "enums": {},
  "props": {
   "record_collection": [
    "reference",
    "The record collection to filter — an action-variable reference to a prior action's collection output. Omitted when unset."
   ],
   "match_condition": [
    "filter group | `null`",
    "The filter to apply to the collection. Empty condition (\"match all\") when omitted or `null`."
   ]
  }
 },
 {
  "type": "sort_record_collection",
  "group": "action",
  "label": "Sort collection",
  "description": "Sorts a record collection.",
  "required": [],
  "enums": {
   "direction": [
    "asc",
    "desc"
   ]
  },
  "props": {
   "record_collection": [
    "reference",
    "The record collection to sort — an action-variable reference to a prior action's collection output. Omitted when unset."
   ],
   "sorts": [
    "array of sort entries",
    "Ordered list of sort entries applied to the collection. Empty when omitted."
   ]
  }
 },
 {
  "type": "clear_record_collection",
  "group": "action",
  "label": "Clear collection",
  "description": "Empties a record collection.",
  "required": [],
  "enums": {},
  "props": {
   "record_collection": [
    "reference",
    "The record collection to clear — an action-variable reference to a prior action's collection output. Omitted when unset."
   ]
  }
 },
 {
  "type": "collected_records_update",
  "group": "action",
  "label": "Update collected records",
  "description": "Updates every record in a collection.",
  "required": [],
  "enums": {},
  "props": {
   "record_collection": [
    "reference",
    "The record collection to update — the output of a prior collect action."
   ],
   "field_assignments": [
    "array of field assignments",
    "Array of typed per-field-type field assignments (discriminated by `field_type`), new in the typed schema. Empty when omitted."
   ],
   "author_id": [
    "integer | reference",
    "Who the mutation is attributed to — a fixed user id or a reference. Omitted → the automation itself."
   ],
   "trigger_webhooks": [
    "boolean",
    "Whether the mutation fires outbound webhooks."
   ],
   "trigger_other_flows": [
    "boolean",
    "Whether the mutation triggers other automations."
   ],
   "silent": [
    "boolean",
    "Whether the mutation is silent (suppresses notifications)."
   ]
  }
 },
 {
  "type": "referenced_records_update",
  "group": "action",
  "label": "Update referenced records",
  "description": "Updates records referenced by the current record.",
  "required": [],
  "enums": {},
  "props": {
   "app_id": [
    "integer",
    "App of the referenced records. Must be one of the trigger record's relation-edge apps."
   ],
   "field_assignments": [
    "array of field assignments",
    "Field assignments applied to each referenced record, one entry per target field. Empty when omitted."
   ],
   "author_id": [
    "integer | reference",
    "User the mutation is attributed to — a literal user id, or a variable reference (created-by / last-modified-by / a user field). Omitted → the automation itself."
   ],
   "trigger_webhooks": [
    "boolean",
    "Whether the mutation fires outbound webhooks."
   ],
   "trigger_other_flows": [
    "boolean",
    "Whether the mutation triggers other automations."
   ],
   "silent": [
    "boolean",
    "Whether the mutation is silent (suppresses notifications)."
   ]
  }
 },
 {
  "type": "collected_records_comment_create",
  "group": "action",
  "label": "Comment on collected records",
  "description": "Adds a comment to every record in a collection.",
  "required": [
   "comment_content"
  ],
  "enums": {},
  "props": {
   "comment_content": [
    "template value",
    "Comment body."
   ],
   "record_collection": [
    "reference",
    "Reference to a record collection variable produced by an earlier action. Omitted → the collection bound by the enclosing for-loop."
   ],
   "author_id": [
    "integer | reference",
    "User the comment is attributed to — a literal user id or a variable reference. Omitted → the automation itself."
   ],
   "trigger_webhooks": [
    "boolean",
    "Whether the mutation fires outbound webhooks."
   ],
   "trigger_other_flows": [
    "boolean",
    "Whether the mutation triggers other automations."
   ],
   "silent": [
    "boolean",
    "Whether the mutation is silent (no notifications)."
   ]
  }
 },
 {
  "type": "rollup_iterable_values",
  "group": "action",
  "label": "Roll up values",
  "description": "Aggregates the values of an iterable (count, sum, average, …).",
  "required": [
   "rollup_type"
  ],
  "enums": {
   "rollup_type": [
    "count_all",
    "count_empty",
    "count_not_empty",
    "percent_empty",
    "percent_not_empty",
    "sum",
    "average",
    "median",
    "min",
    "max"
   ]
  },
  "props": {
   "rollup_type": [
    "enum",
    "The aggregation to perform over the iterable's values. No canonical default."
   ],
   "rollup_variable_def": [
    "reference",
    "The iterable whose values are rolled up — a collection-scoped field variable an upstream collect action must have put in scope. Carried through when present, dropped when unset."
   ],
   "custom_variable_def": [
    "object",
    "The declared **output** variable holding the rollup result; reference it from later actions by its label. Defaults to `{ custom_type: 'any', label: 'Rollup' }`."
   ]
  }
 },
 {
  "type": "current_record_call_automation",
  "group": "action",
  "label": "Call automation",
  "description": "Calls another automation with the current record.",
  "required": [],
  "enums": {},
  "props": {
   "automation_id": [
    "integer",
    "Id of the automation to call. Unset target when omitted."
   ],
   "call_arguments": [
    "array of argument bindings",
    "Arguments bound to the called automation's declared inputs, one per the callee's custom variable. Empty when omitted."
   ]
  }
 },
 {
  "type": "collected_records_call_automation",
  "group": "action",
  "label": "Call automation for collected records",
  "description": "Calls another automation for every record in a collection.",
  "required": [],
  "enums": {},
  "props": {
   "automation_id": [
    "integer",
    "Id of the automation to call for each collected record. Omitted → no target; an unset target round-trips as absent."
   ],
   "record_collection": [
    "reference",
    "The record collection to iterate over — an action-variable reference to a prior action's collection output. Omitted when unset."
   ],
   "call_arguments": [
    "array of call-argument objects",
    "Arguments bound to the called automation's declared inputs, one per its custom variables. Empty when omitted."
   ]
  }
 },
 {
  "type": "current_record_generate_automation_weblink",
  "group": "action",
  "label": "Generate weblink",
  "description": "Generates a weblink that calls an automation with the current record.",
  "required": [],
  "enums": {
   "custom_variable_def.custom_type": [
    "any",
    "single_file",
    "multi_file",
    "single_link",
    "html_table_rows"
   ],
   "weblink_expiration": [
    "never",
    "on_click",
    "one_day",
    "one_week",
    "one_month",
    "one_year"
   ]
  },
  "props": {
   "automation_id": [
    "integer",
    "Id of the automation the generated weblink calls. Unset target when omitted."
   ],
   "call_arguments": [
    "array of argument bindings",
    "Arguments bound to the target automation's declared inputs, one per the callee's custom variable. Empty when omitted."
   ],
   "custom_variable_def": [
    "object",
    "The action's output variable carrying the generated weblink. Each entry is `{ custom_type, label }`. Defaults to the canonical single-link `Weblink` variable (`{ custom_type: \"single_link\", label: \"Weblink\" }`) when omitted."
   ],
   "weblink_expiration": [
    "enum",
    "When the generated weblink expires. Default `never`."
   ]
  }
 },
 {
  "type": "display_webpage",
  "group": "action",
  "label": "Display webpage",
  "description": "Displays a webpage in a weblink flow.",
  "required": [],
  "enums": {
   "join_type": [
    "add_below",
    "add_above",
    "replace_previous"
   ]
  },
  "props": {
   "join_type": [
    "enum",
    "How the webpage joins any previously displayed webpage. Default `add_below`."
   ],
   "fullscreen": [
    "boolean",
    "Whether the webpage is displayed fullscreen. Carried through only when set."
   ],
   "remove_branding": [
    "boolean",
    "Whether Tape branding is removed. Carried through only when set."
   ],
   "webpage_body": [
    "template value",
    "HTML template string rendered as the webpage body. Empty when omitted."
   ]
  }
 },
 {
  "type": "redirect_user",
  "group": "action",
  "label": "Redirect user",
  "description": "Redirects the user to a URL in a weblink flow.",
  "required": [
   "redirect_url"
  ],
  "enums": {},
  "props": {
   "redirect_url": [
    "template value",
    "Target URL to redirect the user to."
   ]
  }
 },
 {
  "type": "send_email",
  "group": "action",
  "label": "Send email",
  "description": "Sends an email.",
  "required": [
   "to_address",
   "subject"
  ],
  "enums": {
   "attach_files_match_type": [
    "all",
    "filtered",
    "most_recent",
    "most_recent_filtered"
   ]
  },
  "props": {
   "to_address": [
    "template value",
    "Recipient address(es)."
   ],
   "subject": [
    "template value",
    "Email subject."
   ],
   "reply_address": [
    "template value",
    "Reply-to address. Empty when omitted."
   ],
   "cc_address": [
    "template value",
    "CC address(es). Empty when omitted."
   ],
   "bcc_address": [
    "template value",
    "BCC address(es). Empty when omitted."
   ],
   "from_address": [
    "template value",
    "From address. Empty when omitted."
   ],
   "from_name": [
    "template value",
    "From display name. Empty when omitted."
   ],
   "message_body": [
    "template value",
    "HTML email body. Empty when omitted."
   ],
   "smtp_account_id": [
    "integer",
    "Id of the SMTP account to send from. Omitted → the organization's **default** SMTP account."
   ],
   "attach_files_variable_defs": [
    "array of references",
    "File variables that are candidates for attachment. Empty when omitted."
   ],
   "attach_files_match_type": [
    "enum",
    "Which candidate files are attached. Default `all`."
   ],
   "attach_files_match_condition": [
    "filter group | `null`",
    "Restricts attached files for the `filtered` / `most_recent_filtered` modes. Empty AND-group when omitted."
   ]
  }
 },
 {
  "type": "collected_records_send_email",
  "group": "action",
  "label": "Send email for collected records",
  "description": "Sends an email for every record in a collection.",
  "required": [],
  "enums": {
   "attach_files_match_type": [
    "all",
    "filtered",
    "most_recent",
    "most_recent_filtered"
   ]
  },
  "props": {
   "to_address": [
    "template value",
    "Recipient address(es). Empty when omitted."
   ],
   "subject": [
    "template value",
    "Email subject. Empty when omitted."
   ],
   "record_collection": [
    "reference",
    "The record collection to send one email for each of — a prior action's `record_collection` output. Omitted → the enclosing for-loop's collection."
   ],
   "reply_address": [
    "template value",
    "Reply-to address. Empty when omitted."
   ],
   "cc_address": [
    "template value",
    "CC address(es). Empty when omitted."
   ],
   "bcc_address": [
    "template value",
    "BCC address(es). Empty when omitted."
   ],
   "from_address": [
    "template value",
    "Sender address. Empty when omitted."
   ],
   "from_name": [
    "template value",
    "Sender display name. Empty when omitted."
   ],
   "message_body": [
    "template value",
    "HTML email body. Empty when omitted."
   ],
   "smtp_account_id": [
    "integer",
    "Id of the SMTP account to send from. Omitted → the organization's **default** SMTP account."
   ],
   "attach_files_variable_defs": [
    "array of references",
    "File variables whose files are candidates for attachment. Empty when omitted."
   ],
   "attach_files_match_type": [
    "enum",
    "Which candidate files are attached. Default `all`."
   ],
   "attach_files_match_condition": [
    "filter group | `null`",
    "Restricts attached files for the `filtered` / `most_recent_filtered` modes. Empty condition (\"match all\") when omitted or `null`."
   ],
   "fields_expanded": [
    "boolean",
    "Editor-only UI flag: whether the address fields are expanded in the editor. **Advertised in the live discovery schema** (like `create_pdf`'s `*_expanded` flags); round-trips on read and write."
   ]
  }
 },
 {
  "type": "create_pdf",
  "group": "action",
  "label": "Create PDF",
  "description": "Renders an HTML template to a PDF file.",
  "required": [],
  "enums": {
   "page_size": [
    "letter",
    "tabloid",
    "legal",
    "a3",
    "a4",
    "a5",
    "envelope_10",
    "custom_size"
   ],
   "page_orientation": [
    "portrait",
    "landscape"
   ],
   "page_margins": [
    "normal",
    "narrow",
    "moderate",
    "wide",
    "custom_margins"
   ],
   "page_number_style": [
    "decimal",
    "decimal_leading_zero",
    "lower_latin",
    "upper_latin",
    "lower_roman",
    "upper_roman"
   ]
  },
  "props": {
   "options_expanded": [
    "boolean",
    "Editor-only UI flag: whether the advanced options section is expanded. Default `false`."
   ],
   "filename": [
    "template value",
    "The generated file's name. Empty when omitted."
   ],
   "custom_variable_def": [
    "object",
    "The custom variable the action outputs (the generated PDF file). `{ single_file, PDF }` when omitted."
   ],
   "page_numbers_enabled": [
    "boolean",
    "Whether page numbers are rendered. Default `false`."
   ],
   "header_and_footer_enabled": [
    "boolean",
    "Whether the PDF header and footer are rendered. Default `false`."
   ],
   "page_size": [
    "enum",
    "Page size. Default `a4`."
   ],
   "page_custom_width": [
    "code value",
    "Custom page width, used only when `page_size` is `custom_size`. Empty when omitted."
   ],
   "page_custom_height": [
    "code value",
    "Custom page height, used only when `page_size` is `custom_size`. Empty when omitted."
   ],
   "page_orientation": [
    "enum",
    "Page orientation. Default `portrait`."
   ],
   "page_margins": [
    "enum",
    "Page margins preset. Default `normal`."
   ],
   "page_custom_margin_top": [
    "code value",
    "Custom top margin, used only when `page_margins` is `custom_margins`. Empty when omitted."
   ],
   "page_custom_margin_right": [
    "code value",
    "Custom right margin, used only when `page_margins` is `custom_margins`. Empty when omitted."
   ],
   "page_custom_margin_bottom": [
    "code value",
    "Custom bottom margin, used only when `page_margins` is `custom_margins`. Empty when omitted."
   ],
   "page_custom_margin_left": [
    "code value",
    "Custom left margin, used only when `page_margins` is `custom_margins`. Empty when omitted."
   ],
   "pdf_header_custom_margin_top": [
    "code value",
    "Custom header top margin. Empty when omitted."
   ],
   "pdf_footer_custom_margin_bottom": [
    "code value",
    "Custom footer bottom margin. Empty when omitted."
   ],
   "page_number_style": [
    "enum",
    "Page-number numbering style. Default `decimal`."
   ],
   "page_number_start": [
    "code value",
    "The number the first page's number starts at. Empty when omitted."
   ],
   "pdf_header": [
    "template value",
    "Header HTML template rendered on the first page. Empty when omitted."
   ],
   "pdf_header_expanded": [
    "boolean",
    "Editor-only UI flag: whether the header section is expanded. Default `false`."
   ],
   "pdf_header_following_pages": [
    "template value",
    "Header HTML template rendered on following pages. Empty when omitted."
   ],
   "pdf_header_following_pages_enabled": [
    "boolean",
    "Whether a distinct following-pages header is used. Default `false`."
   ],
   "pdf_footer": [
    "template value",
    "Footer HTML template rendered on the first page. Empty when omitted."
   ],
   "pdf_footer_expanded": [
    "boolean",
    "Editor-only UI flag: whether the footer section is expanded. Default `false`."
   ],
   "pdf_footer_following_pages": [
    "template value",
    "Footer HTML template rendered on following pages. Empty when omitted."
   ],
   "pdf_footer_following_pages_enabled": [
    "boolean",
    "Whether a distinct following-pages footer is used. Default `false`."
   ],
   "pdf_body_expanded": [
    "boolean",
    "Editor-only UI flag: whether the body section is expanded. Default `false`."
   ],
   "pdf_body": [
    "template value",
    "Body HTML template rendered as the PDF content. Empty when omitted."
   ]
  }
 },
 {
  "type": "http_call",
  "group": "action",
  "label": "HTTP request",
  "description": "Makes an outbound HTTP request.",
  "required": [
   "http_call_type",
   "http_call_url"
  ],
  "enums": {
   "http_call_type": [
    "get",
    "post",
    "put",
    "patch",
    "delete"
   ],
   "custom_variable_defs[].custom_type": [
    "any",
    "single_file",
    "multi_file",
    "single_link",
    "html_table_rows"
   ]
  },
  "props": {
   "http_call_type": [
    "enum",
    "HTTP method."
   ],
   "http_call_url": [
    "template value",
    "Request URL."
   ],
   "http_call_body": [
    "template value",
    "Request body. Empty when omitted."
   ],
   "http_call_headers": [
    "array of objects",
    "Request headers. Each entry is `{ key, value }` (plus an optional `id` that defaults to an empty string `\"\"` when omitted — header entries are not server-minted). `value` is a template value. Empty when omitted."
   ],
   "http_call_follow_redirects": [
    "boolean",
    "Whether to follow 3xx redirects. Default `false`."
   ],
   "custom_variable_defs": [
    "array of variable declarations",
    "Custom variables this action declares (e.g. the response variable) for its own code or later actions. Empty when omitted."
   ]
  }
 },
 {
  "type": "authenticated_http_call",
  "group": "action",
  "label": "Authenticated HTTP request",
  "description": "Makes an outbound HTTP request signed by an authentication provider.",
  "required": [
   "http_call_type",
   "http_call_url"
  ],
  "enums": {
   "http_call_type": [
    "get",
    "post",
    "put",
    "patch",
    "delete"
   ]
  },
  "props": {
   "http_call_type": [
    "enum",
    "HTTP method."
   ],
   "http_call_url": [
    "template value",
    "Request URL."
   ],
   "http_call_body": [
    "template value",
    "Request body. Empty when omitted."
   ],
   "http_call_headers": [
    "array of header objects",
    "Request headers — each a `{ key, value }` pair whose `value` is a template value. Empty `` when omitted."
   ],
   "http_call_follow_redirects": [
    "boolean",
    "Whether to follow 3xx redirects. `false` when omitted."
   ],
   "authentication_provider_id": [
    "integer",
    "Authentication provider that signs the request. Absent when omitted → the action is skipped at run time."
   ],
   "custom_variable_defs": [
    "array of custom variable defs",
    "Custom variables the action declares (e.g. its response variable) for its own code or later actions. Empty `` when omitted."
   ]
  }
 },
 {
  "type": "delay",
  "group": "action",
  "label": "Delay",
  "description": "Pauses the automation for a fixed duration.",
  "required": [
   "delay_ms"
  ],
  "enums": {
   "delay_ms": [
    "15000",
    "30000",
    "45000",
    "60000"
   ]
  },
  "props": {
   "delay_ms": [
    "enum",
    "How long the run pauses before continuing, in milliseconds."
   ]
  }
 },
 {
  "type": "exit",
  "group": "action",
  "label": "Exit",
  "description": "Ends the automation run.",
  "required": [
   "exit_type"
  ],
  "enums": {
   "exit_type": [
    "success",
    "failure"
   ]
  },
  "props": {
   "exit_type": [
    "enum",
    "Whether the run exits as a success or a failure."
   ]
  }
 },
 {
  "type": "for_loop",
  "group": "control_flow",
  "label": "For loop",
  "description": "Runs nested actions for each item of an iterable. `group: \"control_flow\"`.",
  "required": [],
  "enums": {},
  "props": {
   "iterable": [
    "reference",
    "The collection to loop over — a `record_collection` reference produced by an upstream `collect_*` action (or a multi-value field / custom variable). Named `iterable` on the wire (renamed from the internal `iterable_variable_def`)."
   ],
   "action_rows": [
    "array of nested actions",
    "The loop body — the actions run once per item. Empty when omitted."
   ],
   "break_condition": [
    "filter group | `null`",
    "Stops the loop when it matches. Omitted → disabled."
   ],
   "continue_condition": [
    "filter group | `null`",
    "Skips to the next item when it matches. Omitted → disabled."
   ]
  }
 },
 {
  "type": "conditional",
  "group": "control_flow",
  "label": "Condition",
  "description": "Runs nested actions only when a condition holds. `group: \"control_flow\"`.",
  "required": [],
  "enums": {},
  "props": {
   "condition": [
    "filter group | `null`",
    "The if-condition. `null` or omitted means **always true**."
   ],
   "action_rows": [
    "array of nested actions",
    "The then branch — actions run when the condition holds."
   ],
   "else_action_rows": [
    "array of nested actions",
    "The else branch — actions run when the condition fails. Omitted disables the else branch."
   ]
  }
 }
];

export interface ActionDoc { type: string; group: 'action' | 'control_flow'; label: string; description: string; required: string[]; enums: Record<string, string[]>; props: Record<string, [string, string]> }
