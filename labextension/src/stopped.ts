/**
 * A long call's progress line whose kernel restarted or died says so, instead of staying
 * frozen mid-count ("2/10 Counted 2 of 10").
 *
 * The kernel that owns a progress output is the kernel of the notebook it is in: only that
 * kernel updates it (`display/live.py`, one display handle). So when a notebook's kernel
 * restarts, dies or is shut down, every progress line of that notebook that has not
 * finished can never finish: its document is rewritten as stopped (`status` "stopped: the
 * kernel restarted at 2/10", `finished` and `cancelled` true), which the renderer draws,
 * a save keeps, and a re-opened copy shows.
 */
import { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';

import { isDocument } from './render/dom';
import { IProgressDoc, PROGRESS_MIME } from './render/progress';

/** What this file needs of a code cell's outputs (`IOutputAreaModel`). */
interface IOutputs {
  readonly length: number;
  get(index: number): { data: Record<string, unknown>; toJSON(): object };
  set(index: number, output: object): void;
}

/** What each kernel status that ends the calls in flight says about it. */
const ENDINGS: Record<string, string> = {
  restarting: 'the kernel restarted',
  autorestarting: 'the kernel died and restarted',
  dead: 'the kernel stopped'
};

/** Rewrite the notebook's unfinished progress lines as stopped; how many there were. */
export function stopProgress(panel: NotebookPanel, why: string): number {
  const cells = panel.content.model?.cells;
  let stopped = 0;
  for (let i = 0; cells && i < cells.length; i++) {
    const cell = cells.get(i);
    const outputs = (cell as unknown as { outputs?: IOutputs }).outputs;
    if (cell.type !== 'code' || !outputs) {
      continue;
    }
    for (let j = 0; j < outputs.length; j++) {
      const output = outputs.get(j);
      const doc = output.data[PROGRESS_MIME];
      if (!isDocument(doc, 'progress') || (doc as unknown as IProgressDoc).finished) {
        continue;
      }
      const progress = doc as unknown as IProgressDoc;
      const at = progress.counts ? ` at ${progress.counts}` : '';
      const status = [progress.status, `stopped: ${why}${at}`].filter(Boolean).join(' · ');
      const json = output.toJSON();
      outputs.set(j, {
        ...json,
        data: {
          [PROGRESS_MIME]: { ...progress, status, finished: true, cancelled: true },
          'text/plain': [progress.toolId, progress.counts, status].filter(Boolean).join(' ')
        }
      });
      stopped++;
    }
  }
  return stopped;
}

function follow(panel: NotebookPanel): void {
  const context = panel.sessionContext;
  context.statusChanged.connect((_, status) => {
    const why = ENDINGS[status];
    if (why) {
      stopProgress(panel, why);
    }
  });
  context.kernelChanged.connect((_, change) => {
    if (change.oldValue) {
      stopProgress(panel, change.newValue ? 'the kernel changed' : 'the kernel stopped');
    }
  });
}

const stopped: JupyterFrontEndPlugin<void> = {
  id: 'mcp-workbench:stopped-progress',
  description: 'Progress lines say so when their kernel restarts or dies mid-call.',
  autoStart: true,
  requires: [INotebookTracker],
  activate: (_app: JupyterFrontEnd, tracker: INotebookTracker): void => {
    tracker.widgetAdded.connect((_, panel) => follow(panel));
    tracker.forEach(follow);
  }
};

export const stoppedPlugins: JupyterFrontEndPlugin<any>[] = [stopped];
