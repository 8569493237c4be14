/**
 * A notebook opened and left alone stays unmodified. When its kernel starts, JupyterLab and
 * Notebook 7 write the kernel's own description into the notebook's metadata (`kernelspec`'s
 * display name, `language_info`'s version and mimetype) and mark the notebook modified, so
 * closing a notebook nobody touched asks to save it, and autosave rewrites the file. Those
 * details name the same kernel the file names: when the notebook was unmodified and the
 * kernel's and the language's names stay the same, it stays unmodified (the details are saved
 * with the next real change). Choosing another kernel still marks it modified.
 */
import { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';

/** One change of a notebook's metadata, as its shared model signals it. */
interface IMetadataChange {
  key: string;
  type: string;
  oldValue?: unknown;
  newValue?: unknown;
}

function nameOf(value: unknown): unknown {
  return value && typeof value === 'object' ? (value as { name?: unknown }).name : undefined;
}

/**
 * Whether a metadata change only fills in the description of the kernel the notebook names:
 * the same kernel's details, or a `language_info` for the language of the notebook's
 * `kernelspec` where there was none, a nameless one or one of the same name. (Lab itself adds
 * a nameless `{name: ''}` to a notebook saved without `language_info` once it is loaded.)
 */
export function describesSameKernel(change: IMetadataChange, kernelspec: unknown): boolean {
  const before = nameOf(change.oldValue);
  const after = nameOf(change.newValue);
  if (change.key === 'language_info') {
    const language =
      kernelspec && typeof kernelspec === 'object'
        ? (kernelspec as { language?: unknown }).language
        : undefined;
    const unnamed = before === undefined || before === '' || before === after;
    return unnamed && (after === '' || (typeof after === 'string' && after === language));
  }
  return (
    change.key === 'kernelspec' &&
    change.type === 'change' &&
    typeof before === 'string' &&
    before !== '' &&
    before === after
  );
}

function keepClean(panel: NotebookPanel): void {
  const model = panel.context.model;
  model.sharedModel.metadataChanged.connect((_, change) => {
    if (!model.dirty && describesSameKernel(change, model.getMetadata('kernelspec'))) {
      // The model marks itself modified right after the change it signals: undo just that.
      void Promise.resolve().then(() => {
        if (!model.isDisposed) {
          model.dirty = false;
        }
      });
    }
  });
}

const plugin: JupyterFrontEndPlugin<void> = {
  id: 'mcp-workbench:clean-on-open',
  description: 'A notebook opened and left alone is not marked modified when its kernel starts.',
  autoStart: true,
  requires: [INotebookTracker],
  activate: (_app: JupyterFrontEnd, tracker: INotebookTracker) => {
    tracker.forEach(keepClean);
    tracker.widgetAdded.connect((_, panel) => keepClean(panel));
  }
};

/** The plugins that keep untouched notebooks unmodified. */
export const cleanPlugins: JupyterFrontEndPlugin<any>[] = [plugin];
