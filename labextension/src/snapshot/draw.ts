/**
 * The tool browser's saved snapshot (`application/vnd.workbench.browser+json`, version 1)
 * drawn from its JSON alone: the search, the result list, the open tool's card and its last
 * call (Action and Observation, drawn by the call renderers), under a line saying to run the
 * cell for the live widget. Every string goes in as text, never as HTML.
 */
import { el, fallback, isDocument, line, list, note, record, text } from '../render/dom';
import { renderToolCard } from '../render/catalog';
import { iconNode } from '../render/icon';
import { IActionDoc, IObservationDoc, renderAction, renderObservation } from '../render/observation';

export const BROWSER_MIME = 'application/vnd.workbench.browser+json';
export const RUN_HINT = 'Saved snapshot of the tool browser: run the cell for the live widget.';
export const NOT_FINISHED = 'The call had not finished when this snapshot was taken.';

const BADGE_TONE: Record<string, string> = {
  'read-only': 'ok',
  destructive: 'error',
  idempotent: 'accent',
  'open-world': 'warn'
};

/** The result list: one row per tool (id, title, description, badges); the open one marked. */
function results(rows: unknown[], open: string): HTMLElement {
  const items = el('ul', 'jp-wb-snapshot-results');
  for (const raw of rows) {
    const row = record(raw);
    const item = el('li', 'jp-wb-snapshot-row');
    const id = text(row.id);
    item.dataset.id = id;
    if (id && id === open) {
      item.classList.add('jp-wb-snapshot-open');
    }
    const idNode = el('span', 'jp-wb-tool-id', id);
    const icon = iconNode(row.icon);
    if (icon) {
      idNode.prepend(icon);
    }
    const head = line('jp-wb-snapshot-head', idNode);
    if (row.title) {
      head.appendChild(el('span', 'jp-wb-snapshot-title', text(row.title)));
    }
    for (const word of list(row.badges)) {
      const name = text(word);
      head.appendChild(el('span', `jp-wb-badge jp-wb-tone-${BADGE_TONE[name] ?? 'muted'}`, name));
    }
    item.appendChild(head);
    if (row.description) {
      item.appendChild(el('div', 'jp-wb-snapshot-description', text(row.description)));
    }
    items.appendChild(item);
  }
  return items;
}

/** The open tool's last call: its Action, then its Observation (or a line if unfinished). */
function lastCall(call: Record<string, unknown>): HTMLElement {
  const box = el('div', 'jp-wb-snapshot-call');
  const action = record(call.action);
  if (action.kind === 'action') {
    box.appendChild(renderAction(action as unknown as IActionDoc));
  }
  const observation = record(call.observation);
  if (observation.kind === 'observation') {
    box.appendChild(renderObservation(observation as unknown as IObservationDoc));
  } else {
    box.appendChild(note(NOT_FINISHED));
  }
  return box;
}

/** Draw a browser snapshot document; anything else gets the fallback line. */
export function renderBrowserSnapshot(doc: unknown): HTMLElement {
  const snap = record(doc);
  if (!isDocument(doc, 'browser')) {
    return fallback('tool browser snapshot', doc);
  }
  const box = el('div', 'jp-wb-box jp-wb-snapshot');
  box.appendChild(
    line(
      'jp-wb-header',
      el('span', 'jp-wb-snapshot-name', 'MCP tool browser'),
      el('span', 'jp-wb-muted', text(snap.header))
    )
  );
  box.appendChild(note(RUN_HINT, 'jp-wb-snapshot-hint'));

  const query = text(snap.query);
  box.appendChild(
    line(
      'jp-wb-snapshot-search',
      el('span', 'jp-wb-muted', 'search'),
      query
        ? el('span', 'jp-wb-snapshot-query', query)
        : el('span', 'jp-wb-muted', '(none)'),
      snap.server ? el('span', 'jp-wb-muted', `server: ${text(snap.server)}`) : null,
      snap.note ? el('span', 'jp-wb-muted jp-wb-snapshot-note', text(snap.note)) : null
    )
  );

  const open = record(snap.open);
  const body = el('div', 'jp-wb-snapshot-body');
  const rows = list(snap.results);
  if (rows.length) {
    body.appendChild(results(rows, text(open.id)));
  }
  if (open.kind === 'tool') {
    const detail = el('div', 'jp-wb-snapshot-detail');
    detail.appendChild(renderToolCard(open));
    if (snap.lastCall !== null && typeof snap.lastCall === 'object') {
      detail.appendChild(lastCall(record(snap.lastCall)));
    }
    body.appendChild(detail);
  }
  box.appendChild(body);
  return box;
}
