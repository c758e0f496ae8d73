import type TurndownService from 'turndown';

/**
 * GFM tables. The Joplin plugin reads `table.rows` and counts whitespace text nodes as cells,
 * neither of which holds on linkedom nodes, so its tables came out as run-together cell text.
 * This rule set works from element children only. A table holding another table is layout,
 * not data: its cells become plain blocks. A table without a header row gets its first row
 * promoted, since GFM needs one and the first row of such tables names the columns. A row below
 * it with nothing in any cell goes: a spacer row of the page's layout, or one whose cells held
 * only what main-content selection took out, is a line of bare pipes to a reader.
 */

interface TableShape {
  layout: boolean;
  columns: number;
  firstRow: Element | undefined;
}

const shapes = new WeakMap<Element, TableShape>();

function rowsOf(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of table.children) {
    if (child.tagName === 'TR') rows.push(child);
    else if (child.tagName === 'THEAD' || child.tagName === 'TBODY' || child.tagName === 'TFOOT') {
      for (const tr of child.children) if (tr.tagName === 'TR') rows.push(tr);
    }
  }
  return rows;
}

function cellsOf(row: Element): Element[] {
  return [...row.children].filter((c) => c.tagName === 'TD' || c.tagName === 'TH');
}

function span(cell: Element): number {
  const n = Number(cell.getAttribute('colspan') ?? 1);
  return Number.isInteger(n) && n > 1 ? Math.min(n, 50) : 1;
}

function shapeOf(table: Element): TableShape {
  let shape = shapes.get(table);
  if (shape) return shape;
  const rows = rowsOf(table);
  const columns = Math.max(0, ...rows.map((r) => cellsOf(r).reduce((n, c) => n + span(c), 0)));
  const layout = columns <= 1 || !!table.querySelector('table');
  shape = { layout, columns, firstRow: rows[0] };
  shapes.set(table, shape);
  return shape;
}

function tableOf(node: Node): Element | undefined {
  for (let p = node.parentNode; p; p = p.parentNode)
    if (p.nodeName === 'TABLE') return p as Element;
  return undefined;
}

function isDataCell(node: Node): boolean {
  const table = tableOf(node);
  return !!table && !shapeOf(table).layout;
}

export function gfmTables(service: TurndownService): void {
  // Turndown tries the latest rule first, so this catch-all goes in before the data-table rules:
  // cells of layout tables are blocks of their own.
  service.addRule('layoutCell', {
    filter: ['td', 'th'],
    replacement: (content) => `\n\n${content}\n\n`,
  });
  service.addRule('tableCell', {
    filter: (node) => (node.nodeName === 'TD' || node.nodeName === 'TH') && isDataCell(node),
    replacement: (content, node) => {
      const text = content
        .replace(/\s*\n+\s*/g, ' ')
        .replace(/\|/g, '\\|')
        .trim();
      return ` ${text} |${' |'.repeat(span(node as Element) - 1)}`;
    },
  });
  service.addRule('tableRow', {
    filter: (node) => node.nodeName === 'TR' && isDataCell(node),
    replacement: (content, node) => {
      const shape = shapeOf(tableOf(node)!);
      const filled = cellsOf(node as Element).reduce((n, c) => n + span(c), 0);
      const row = `|${content}${' |'.repeat(Math.max(0, shape.columns - filled))}`;
      if (node !== shape.firstRow) return /[^\s|]/.test(content) ? `\n${row}` : '';
      return `\n${row}\n|${' --- |'.repeat(shape.columns)}`;
    },
  });
  service.addRule('tableSection', {
    filter: (node) => ['THEAD', 'TBODY', 'TFOOT'].includes(node.nodeName) && isDataCell(node),
    replacement: (content) => content,
  });
  service.addRule('table', {
    filter: (node) => node.nodeName === 'TABLE' && !shapeOf(node as Element).layout,
    replacement: (content, node) => {
      const caption = (node as Element).querySelector('caption')?.textContent?.trim();
      return `\n\n${caption ? `${caption}\n\n` : ''}${content.replace(/\n+/g, '\n').trim()}\n\n`;
    },
  });
  service.addRule('tableCaption', { filter: ['caption'], replacement: () => '' });
}
