// A reference's hover as Markdown: the portal's text escaped, choices in their colours, USER fields, actions.
import * as assert from 'node:assert/strict';
import type { Column } from '../../../src/api/types';
import { escapeMarkdown, recordHoverMarkdown, unreadableHoverMarkdown } from '../../../src/codeLinks/hoverText';

function column(field: string, name: string, type: string, typeName: string, extra: Partial<Column> = {}): Column {
  return {
    app_id: '201',
    field_id: field.slice(1),
    field_id_in_data: field,
    field_name: name,
    field_description: '',
    type,
    type_name: typeName,
    position: '0',
    unique_value: '0',
    ...extra,
  };
}

const columns = [
  column('f31', 'Subject', '0', 'Text Field'),
  column('f35', 'State', '2', 'Choice', {
    choices: [
      { id: '1', name: 'Open', color: '#2e86de', order: '1' },
      { id: '2', name: 'In progress', color: 'red;background:url(x)', order: '2' },
    ],
  }),
  column('f40', 'Assignee', '11', 'User'),
];

describe('references: the hover', () => {
  it('shows the title, each choice in its colour, the users, and the actions as command links', () => {
    const text = recordHoverMarkdown({
      reference: 'TCK-12',
      recordId: '12',
      appName: 'Tickets',
      columns,
      data: { f31: 'Printer [on] *fire* <b>now</b>', f35: '1', f40: 'ada@example.com,grace@example.com' },
      titleField: columns[0],
      actions: [{ label: 'Open', command: 'portal.openRecord', args: [{ portalId: 'p', appId: '201', recordId: '12' }] }],
    });
    assert.ok(text.includes('**TCK\\-12** · Printer \\[on\\] \\*fire\\* &lt;b&gt;now&lt;/b&gt; — Tickets'), text);
    assert.ok(text.includes('State: <span style="color:#2e86de;">■</span> Open'), text);
    assert.ok(text.includes('Assignee: ada@example\\.com, grace@example\\.com'), text);
    assert.ok(
      text.includes(
        `[Open](command:portal.openRecord?${encodeURIComponent(JSON.stringify([{ portalId: 'p', appId: '201', recordId: '12' }]))})`,
      ),
      text,
    );
  });

  it('gives no colour that is not one, and says why a record cannot be shown', () => {
    const text = recordHoverMarkdown({ reference: '#2', recordId: '2', columns, data: { f35: '2' }, titleField: columns[0], actions: [] });
    assert.ok(text.includes('State: In progress') && !text.includes('url('), text);
    assert.ok(text.includes('\\(no Subject\\)'), text);
    assert.equal(unreadableHoverMarkdown('TCK-9', 'Record 9 is not in Demo.'), '**TCK\\-9** · Record 9 is not in Demo\\.');
    assert.equal(escapeMarkdown('[x](command:evil)'), '\\[x\\]\\(command:evil\\)');
  });
});
