// The page as assistive technology sees it: Chromium's computed accessibility tree, read over the DevTools
// protocol (roles, names and descriptions after ARIA, labels, shadow roots and element references are
// resolved), rather than the attributes the page set.
import type { Page } from 'playwright-core';

export interface AxNode {
  role: string;
  name: string;
  description: string;
  /** Boolean and token properties Chromium reports (focused, required, invalid, …). */
  properties: Record<string, string | boolean | number | undefined>;
}

interface CdpValue {
  value?: unknown;
}

interface CdpAxNode {
  nodeId: string;
  parentId?: string;
  ignored: boolean;
  role?: CdpValue;
  name?: CdpValue;
  description?: CdpValue;
  properties?: Array<{ name: string; value: CdpValue }>;
}

function text(value: CdpValue | undefined): string {
  return typeof value?.value === 'string' ? value.value : '';
}

function simplified(node: CdpAxNode): AxNode {
  return {
    role: text(node.role),
    name: text(node.name),
    description: text(node.description),
    properties: Object.fromEntries(
      (node.properties ?? []).map((property) => [property.name, property.value.value as string | boolean | number | undefined]),
    ),
  };
}

async function fullTree(page: Page): Promise<CdpAxNode[]> {
  const session = await page.context().newCDPSession(page);
  try {
    await session.send('Accessibility.enable');
    return ((await session.send('Accessibility.getFullAXTree')) as { nodes: CdpAxNode[] }).nodes;
  } finally {
    await session.detach();
  }
}

/** Every node of the page's accessibility tree that is not ignored. */
export async function accessibilityTree(page: Page): Promise<AxNode[]> {
  return (await fullTree(page)).filter((node) => !node.ignored).map(simplified);
}

/**
 * The node that has the keyboard focus (not the document, which Chromium marks focused as well), then its
 * ancestors up to the document: focus may rest inside a control (a date input's month field), and a screen
 * reader announces the control it entered.
 */
export async function focusPath(page: Page): Promise<AxNode[]> {
  const nodes = await fullTree(page);
  const focused = nodes.filter(
    (node) =>
      !node.ignored &&
      node.properties?.some((property) => property.name === 'focused' && property.value.value === true) &&
      text(node.role) !== 'RootWebArea',
  );
  if (focused.length !== 1)
    throw new Error(
      `Expected one focused node in the accessibility tree, found ${focused.length}: ${JSON.stringify(focused.map(simplified))}.`,
    );
  const byId = new Map(nodes.map((node) => [node.nodeId, node]));
  const path: AxNode[] = [];
  for (let node: CdpAxNode | undefined = focused[0]; node; node = node.parentId === undefined ? undefined : byId.get(node.parentId)) {
    if (!node.ignored) path.push(simplified(node));
  }
  return path;
}
