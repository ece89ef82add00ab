// The names of the language model tools, as package.json contributes them (contributes.languageModelTools)
// and activation registers them. A module of its own so that activation does not load the tools.
export const TOOL_NAMES = {
  listPortalsAndApps: 'portal_listPortalsAndApps',
  describeApp: 'portal_describeApp',
  queryView: 'portal_queryView',
  readRecord: 'portal_readRecord',
  createRecord: 'portal_createRecord',
  updateRecord: 'portal_updateRecord',
  addComment: 'portal_addComment',
} as const;

export type ToolName = (typeof TOOL_NAMES)[keyof typeof TOOL_NAMES];
