// The Orders (app 102) the import benchmark and its profile harness send: a CSV as a person exports it
// (ISO dates and date-times, choices by name, decimals), and the same records as the bare clients' form
// bodies, in the formats the portal takes.
const STATUSES = ['New', 'Confirmed', 'Shipped'];

export function orders(count: number, prefix: string): string {
  const lines = ['Title,Order date,Delivery,Amount,Quantity,Status,Tags,Owner'];
  for (let index = 1; index <= count; index += 1) {
    const day = String((index % 28) + 1).padStart(2, '0');
    lines.push(
      `"${prefix} order ${index}, oak",2026-01-${day},2026-02-${day}T10:30:00Z,${(index % 997) + 0.5},${index % 7},${STATUSES[index % 3]},"Urgent, Gift",ada@example.com`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The fields of bare create `index`: an order of the CSV as the portal takes it. */
export function bareOrderBody(index: number): string {
  const day = String((index % 28) + 1).padStart(2, '0');
  return new URLSearchParams({
    f11: `Bare order ${index}, oak`,
    f15: `${day}-01-2026`,
    f16: `${day}-02-2026 10:30`,
    f17: String((index % 997) + 0.5),
    f18: String(index % 7),
    f19: String((index % 3) + 1),
    f20: '1,2',
    f22: 'ada@example.com',
  }).toString();
}
