// The commands of bulk import and bulk change (src/ids.ts IMPORT_COMMANDS).
import { IMPORT_COMMANDS } from '../ids';
import { bulkDeleteRows, bulkSetField } from './bulkChange';
import { openImport, type ImportDeps } from './importRecords';
import type { CommandTable } from './register';

export function importCommands(deps: ImportDeps): CommandTable {
  return {
    [IMPORT_COMMANDS.importRecords]: (arg) => openImport(deps, arg),
    [IMPORT_COMMANDS.setField]: (arg) => bulkSetField(deps, arg),
    [IMPORT_COMMANDS.deleteRows]: (arg) => bulkDeleteRows(deps, arg),
  };
}
