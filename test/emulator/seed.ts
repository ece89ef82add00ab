// The demo portal every emulator starts with and POST /_emulator/reset restores (README.md, "The seed").
// Two sites, four apps that together use every column kind, Draft mode on Orders, the comments plugin off
// on Knowledge base, and Tickets with its records generated (generate.ts), 100,000 by default.
import type { ChoiceDef, SiteDef } from './model';

const choices = (...entries: Array<[string, string]>): ChoiceDef[] =>
  entries.map(([name, color], index) => ({ id: String(index + 1), name, color }));

export const CUSTOMERS = '101';
export const ORDERS = '102';
export const TICKETS = '201';
export const KNOWLEDGE_BASE = '202';
/** The view over every generated record. */
export const BIG_VIEW = '6';

export const STAFF = [
  'ada@example.com',
  'grace@example.com',
  'alan@example.com',
  'katherine@example.com',
  'linus@example.com',
  'margaret@example.com',
];

export const SITES: SiteDef[] = [
  {
    id: '1',
    name: 'Operations',
    manager: 'Grace Hopper',
    apps: [
      {
        app_id: CUSTOMERS,
        name: 'Customers',
        draftMode: false,
        commentsPlugin: true,
        lookups: [],
        columns: [
          { field_id: '1', name: 'Customer no.', kind: 'autonumber', unique: true, autoStart: 1001 },
          { field_id: '2', name: 'Name', kind: 'text', required: true, unique: true, description: 'Company name as on the contract' },
          { field_id: '3', name: 'Email', kind: 'email' },
          { field_id: '4', name: 'Phone', kind: 'phone' },
          { field_id: '5', name: 'Website', kind: 'url' },
          {
            field_id: '6',
            name: 'Tier',
            kind: 'choice',
            choiceType: '1',
            displayFormat: '1',
            defaultValue: '1',
            choices: choices(['Bronze', '#CD7F32'], ['Silver', '#C0C0C0'], ['Gold', '#FFD700']),
          },
          { field_id: '7', name: 'Account manager', kind: 'user' },
          { field_id: '8', name: 'Notes', kind: 'multiline' },
          { field_id: '9', name: 'Customer since', kind: 'date' },
        ],
        views: [
          { view_id: '1', name: 'All customers', columns: ['1', '2', '3', '4', '5', '6', '7', '8', '9'] },
          {
            view_id: '2',
            name: 'Gold customers',
            columns: ['1', '2', '3', '6', '7'],
            filters: [{ field_id: '6', operator: '2', value: '3' }],
          },
        ],
      },
      {
        app_id: ORDERS,
        name: 'Orders',
        draftMode: true,
        commentsPlugin: true,
        lookups: [{ appId: CUSTOMERS, viaFieldId: '12' }],
        columns: [
          { field_id: '10', name: 'Order no.', kind: 'autonumber', unique: true, autoStart: 5001 },
          { field_id: '11', name: 'Title', kind: 'text', required: true },
          { field_id: '12', name: 'Customer id', kind: 'number', description: 'Id of the record in Customers' },
          { field_id: '13', name: 'Customer', kind: 'lookup', lookupAppId: CUSTOMERS, lookupFieldId: '2' },
          { field_id: '14', name: 'Customer email', kind: 'lookup', lookupAppId: CUSTOMERS, lookupFieldId: '3' },
          { field_id: '15', name: 'Order date', kind: 'date', required: true },
          { field_id: '16', name: 'Delivery', kind: 'datetime', description: 'UTC' },
          { field_id: '17', name: 'Amount', kind: 'currency', required: true, currencySymbol: '€' },
          { field_id: '18', name: 'Quantity', kind: 'number' },
          {
            field_id: '19',
            name: 'Status',
            kind: 'choice',
            choiceType: '0',
            displayFormat: '0',
            defaultValue: '1',
            choices: choices(
              ['New', '#1E88E5'],
              ['Confirmed', '#43A047'],
              ['Shipped', '#FB8C00'],
              ['Delivered', '#6D4C41'],
              ['Cancelled', '#E53935'],
            ),
          },
          {
            field_id: '20',
            name: 'Tags',
            kind: 'choice',
            choiceType: '2',
            displayFormat: '2',
            defaultValue: '',
            choices: choices(['Urgent', '#D81B60'], ['Gift', '#8E24AA'], ['Wholesale', '#00897B'], ['Fragile', '#F4511E']),
          },
          { field_id: '21', name: 'Handling time', kind: 'duration' },
          { field_id: '22', name: 'Owner', kind: 'user' },
        ],
        views: [
          { view_id: '3', name: 'All orders', columns: ['10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20', '21', '22'] },
          {
            view_id: '4',
            name: 'Open orders',
            columns: ['10', '11', '13', '15', '17', '19'],
            filters: [
              { field_id: '19', operator: '3', value: '4' },
              { field_id: '19', operator: '3', value: '5' },
            ],
          },
          { view_id: '5', name: 'Orders with customer details', columns: ['10', '11', '13', '3', '4', '6', '17'] },
        ],
      },
    ],
  },
  {
    id: '2',
    name: 'Support',
    manager: 'Alan Turing',
    apps: [
      {
        app_id: TICKETS,
        name: 'Tickets',
        draftMode: false,
        commentsPlugin: true,
        lookups: [{ appId: CUSTOMERS, viaFieldId: '32' }],
        columns: [
          { field_id: '30', name: 'Ticket no.', kind: 'autonumber', unique: true, autoStart: 100001 },
          { field_id: '31', name: 'Subject', kind: 'text', required: true },
          { field_id: '32', name: 'Customer id', kind: 'number', description: 'Id of the record in Customers' },
          { field_id: '33', name: 'Customer', kind: 'lookup', lookupAppId: CUSTOMERS, lookupFieldId: '2' },
          {
            field_id: '34',
            name: 'Priority',
            kind: 'choice',
            choiceType: '0',
            displayFormat: '4',
            defaultValue: '2',
            choices: choices(['Low', '#90A4AE'], ['Normal', '#42A5F5'], ['High', '#FFA726'], ['Critical', '#EF5350']),
          },
          {
            field_id: '35',
            name: 'State',
            kind: 'choice',
            choiceType: '1',
            displayFormat: '0',
            defaultValue: '1',
            choices: choices(['Open', '#66BB6A'], ['In progress', '#29B6F6'], ['Waiting', '#FFCA28'], ['Closed', '#BDBDBD']),
          },
          { field_id: '36', name: 'Opened', kind: 'datetime', required: true },
          { field_id: '37', name: 'Due', kind: 'date' },
          { field_id: '38', name: 'Effort', kind: 'duration' },
          { field_id: '39', name: 'Cost', kind: 'currency', currencySymbol: '$' },
          { field_id: '40', name: 'Assignee', kind: 'user' },
          { field_id: '41', name: 'Reporter email', kind: 'email' },
        ],
        views: [
          { view_id: BIG_VIEW, name: 'All tickets', columns: ['30', '31', '32', '33', '34', '35', '36', '37', '38', '39', '40', '41'] },
          {
            view_id: '7',
            name: 'Open tickets',
            columns: ['30', '31', '33', '34', '36', '40'],
            filters: [{ field_id: '35', operator: '2', value: '1' }],
          },
          { view_id: '8', name: 'Tickets with customer tier', columns: ['30', '31', '33', '6', '34', '35'] },
        ],
      },
      {
        app_id: KNOWLEDGE_BASE,
        name: 'Knowledge base',
        draftMode: false,
        commentsPlugin: false,
        lookups: [],
        columns: [
          { field_id: '50', name: 'Article no.', kind: 'autonumber', unique: true, autoStart: 1 },
          { field_id: '51', name: 'Title', kind: 'text', required: true, unique: true },
          { field_id: '52', name: 'Body', kind: 'multiline', required: true },
          { field_id: '53', name: 'Reference', kind: 'url' },
          { field_id: '54', name: 'Hotline', kind: 'phone' },
          { field_id: '55', name: 'Reviewed on', kind: 'date' },
          {
            field_id: '56',
            name: 'Rating',
            kind: 'choice',
            choiceType: '1',
            displayFormat: '3',
            defaultValue: '',
            choices: choices(['1', '#FFEBEE'], ['2', '#FFCDD2'], ['3', '#EF9A9A'], ['4', '#E57373'], ['5', '#EF5350']),
          },
          {
            field_id: '57',
            name: 'Audience',
            kind: 'choice',
            choiceType: '2',
            displayFormat: '1',
            defaultValue: '1',
            choices: choices(['Customers', '#26A69A'], ['Staff', '#5C6BC0'], ['Partners', '#AB47BC']),
          },
          { field_id: '58', name: 'Authors', kind: 'user' },
          { field_id: '59', name: 'Read time', kind: 'duration' },
        ],
        views: [
          { view_id: '9', name: 'All articles', columns: ['50', '51', '52', '53', '54', '55', '56', '57', '58', '59'] },
          {
            view_id: '10',
            name: 'Reviewed articles',
            columns: ['50', '51', '55', '56'],
            filters: [{ field_id: '55', operator: '5', value: '' }],
          },
        ],
      },
    ],
  },
];

export interface SeedRecord {
  draft?: boolean;
  data: Record<string, string>;
}

/** Literal records of the small apps, ids 1, 2, ... in this order; Auto Number values are added by the store. */
export const SEED_RECORDS: Record<string, SeedRecord[]> = {
  [CUSTOMERS]: [
    [
      'Acme Corporation',
      'orders@acme.example.com',
      '+1 (555) 010-2000',
      'https://acme.example.com',
      '3',
      STAFF[0],
      '<p>Key account since the <b>first</b> year.</p>',
      '15-01-2019',
    ],
    ['Globex', 'info@globex.example.com', '+44 20 7946 0000', 'https://globex.example.com/shop', '2', STAFF[1], '', '03-06-2020'],
    [
      'Initech',
      'contact@initech.example.com',
      '555-0100',
      'http://initech.example.com',
      '1',
      STAFF[2],
      '<ul><li>Prefers e-mail</li><li>Pays late</li></ul>',
      '29-02-2020',
    ],
    ['Umbrella Ltd', 'sales@umbrella.example.org', '0800 123 456', 'https://umbrella.example.org', '3', STAFF[0], '', '11-11-2018'],
    ['Hooli', 'hello@hooli.example.com', '1-800-HOOLI', 'https://hooli.example.com', '2', STAFF[3], '<p>Contact: Gavin</p>', '01-04-2021'],
    ['Vandelay Industries', 'art@vandelay.example.com', '+1 212 555 0199', '', '1', '', '', '30-09-2021'],
    ['Stark Tools', 'ops@stark.example.com', '', 'https://stark.example.com', '3', `${STAFF[4]},${STAFF[5]}`, '', '07-07-2017'],
    ['Wayne Supplies', 'buy@wayne.example.com', '(555) 228-6261', '', '2', STAFF[1], '', '22-12-2022'],
    ['Soylent Foods', '', '555.0123', 'https://soylent.example.net', '1', STAFF[2], '<p>Trial customer</p>', '14-02-2023'],
    ['Tyrell Systems', 'replicate@tyrell.example.com', '+81 3 5555 0101', 'https://tyrell.example.com', '3', STAFF[5], '', '02-08-2019'],
    ['Cyberdyne', 'skynet@cyberdyne.example.com', '', '', '1', '', '', '29-08-2024'],
    [
      'Oscorp',
      'norman@oscorp.example.com',
      '+1 (212) 555-0142',
      'https://oscorp.example.com/about',
      '2',
      STAFF[3],
      '<p>Renewal in <i>Q3</i></p>',
      '05-05-2024',
    ],
  ].map(([name, email, phone, site, tier, manager, notes, since]) => ({
    data: { f2: name, f3: email, f4: phone, f5: site, f6: tier, f7: manager, f8: notes, f9: since },
  })),
  [ORDERS]: [
    ['Office chairs', '1', '02-01-2026', '05-01-2026 09:30', '1250.00', '10', '4', '1', '01:30', STAFF[0], false],
    ['Standing desks', '1', '10-01-2026', '20-01-2026 14:00', '4800', '6', '3', '3', '02:00', STAFF[1], false],
    ['Printer toner', '3', '12-01-2026', '', '89.99', '12', '2', '', '00:15', STAFF[2], false],
    ['Gift baskets', '5', '20-01-2026', '24-01-2026 08:00', '340.50', '20', '1', '1,2', '03:45', STAFF[3], false],
    ['Server rack', '7', '25-01-2026', '', '15999.95', '1', '5', '4', '', STAFF[4], false],
    ['Coffee beans', '2', '01-02-2026', '03-02-2026 07:15', '64', '8', '2', '1,3', '00:30', STAFF[0], false],
    ['Desk lamps (draft)', '4', '05-02-2026', '', '230', '15', '1', '', '', STAFF[5], true],
    ['Laptops (draft)', '', '06-02-2026', '', '9600', '8', '1', '1,4', '04:00', '', true],
  ].map(([title, customer, date, delivery, amount, qty, status, tags, handling, owner, draft]) => ({
    draft: draft === true,
    data: {
      f11: String(title),
      f12: String(customer),
      f15: String(date),
      f16: String(delivery),
      f17: String(amount),
      f18: String(qty),
      f19: String(status),
      f20: String(tags),
      f21: String(handling),
      f22: String(owner),
    },
  })),
  [KNOWLEDGE_BASE]: [
    [
      'Resetting your password',
      '<p>Open <b>Settings</b>, then <i>Security</i>.</p>',
      'https://help.example.com/password',
      '+1 800 555 0100',
      '12-03-2025',
      '5',
      '1',
      STAFF[0],
      '00:05',
    ],
    ['Printer jams', '<ol><li>Open tray 2</li><li>Remove the sheet</li></ol>', '', '', '01-12-2024', '3', '2', STAFF[2], '00:10'],
    [
      'VPN on the road',
      '<p>Use the <a href="https://vpn.example.com">portal</a>.</p><br>',
      'https://vpn.example.com',
      '',
      '',
      '',
      '1,2',
      `${STAFF[1]},${STAFF[3]}`,
      '00:15',
    ],
    ['Ordering hardware', '<p>Through the Orders app.</p>', '', 'ext. 4410', '20-06-2025', '4', '2', STAFF[4], '00:03'],
    ['Partner onboarding', '<h2>Steps</h2><p>Sign the NDA first.</p>', 'https://partners.example.com/start', '', '', '2', '3', '', '01:00'],
    ['Holiday calendar', '<table><tr><td>25-12</td><td>Closed</td></tr></table>', '', '', '05-01-2026', '', '2', STAFF[5], ''],
  ].map(([title, body, reference, hotline, reviewed, rating, audience, authors, readTime]) => ({
    data: { f51: title, f52: body, f53: reference, f54: hotline, f55: reviewed, f56: rating, f57: audience, f58: authors, f59: readTime },
  })),
};
