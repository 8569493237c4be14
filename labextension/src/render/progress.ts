/**
 * A long call's progress line (`application/vnd.workbench.progress+json`, version 1): the
 * tool id, a bar, the counts, the status and the last server log lines. Drawn from the JSON,
 * so an untrusted copy keeps its bar (the HTML's inline styles are stripped there).
 */
import { el, fallback, isDocument, line } from './dom';
import type { ProgressDocument as IProgressDoc } from '../generated/documents';

export const PROGRESS_MIME = 'application/vnd.workbench.progress+json';

// The shapes are generated from the JSON Schemas (workbench/display/schemas/).
export type { IProgressDoc };

const LEVEL_TONE: Record<string, string> = {
  debug: 'jp-wb-muted',
  info: 'jp-wb-muted',
  notice: 'jp-wb-muted',
  warning: 'jp-wb-warn',
  error: 'jp-wb-error',
  critical: 'jp-wb-error',
  alert: 'jp-wb-error',
  emergency: 'jp-wb-error'
};

function bar(fraction: number, cancelled: boolean): HTMLElement {
  const track = el('span', 'jp-wb-progress-track');
  const fill = el('span', 'jp-wb-progress-fill');
  fill.classList.toggle('jp-wb-is-cancelled', cancelled);
  const percent = Math.min(Math.max(fraction, 0), 1) * 100;
  fill.style.width = `${percent.toFixed(1)}%`;
  track.appendChild(fill);
  track.setAttribute('role', 'progressbar');
  track.setAttribute('aria-valuemin', '0');
  track.setAttribute('aria-valuemax', '100');
  track.setAttribute('aria-valuenow', percent.toFixed(0));
  return track;
}

export function renderProgress(doc: unknown): HTMLElement {
  if (!isDocument(doc, 'progress')) {
    return fallback('progress line', doc);
  }
  const progress = doc as IProgressDoc;
  const box = el('div', 'jp-wb-box jp-wb-progress');
  if (progress.cancelled) {
    box.classList.add('jp-wb-is-cancelled');
  }
  box.appendChild(
    line(
      'jp-wb-header',
      progress.toolId ? el('span', 'jp-wb-tool-id', progress.toolId) : null,
      typeof progress.fraction === 'number' ? bar(progress.fraction, progress.cancelled) : null,
      progress.counts ? el('code', 'jp-wb-counts', progress.counts) : null,
      progress.status ? el('span', 'jp-wb-muted', progress.status) : null
    )
  );
  for (const log of Array.isArray(progress.logs) ? progress.logs : []) {
    box.appendChild(
      line(
        'jp-wb-log',
        el('code', LEVEL_TONE[log.level] ?? 'jp-wb-muted', `[${log.level}]`),
        el('span', 'jp-wb-muted', `${log.server}:`),
        el('span', 'jp-wb-log-message', log.message)
      )
    );
  }
  return box;
}
